"""GIF and sticker search: the provider chosen by which key is set, their answers read, the
offline pack when there is no key or the provider fails, the limits kept, and every picture
checked before it is kept. Everything against a stand-in on 127.0.0.1."""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.media import offline_pack as media_pack
from bot.media.search import Giphy, Klipy, Media, MediaError, checked_png
from tests.bot.media_standin import MediaStandIn


@pytest.fixture
async def server():
    async with MediaStandIn() as s:
        yield s


def klipy(server: MediaStandIn, **options) -> Media:
    return Media(Klipy("k-key", server.klipy_url), **options)


def giphy(server: MediaStandIn, **options) -> Media:
    return Media(Giphy("g-key", server.giphy_url), **options)


def test_the_provider_is_chosen_by_which_key_is_set():
    assert Media.from_environment({"KLIPY_API_KEY": "k", "GIPHY_API_KEY": "g"}).name == "klipy"
    assert Media.from_environment({"GIPHY_API_KEY": "g"}).name == "giphy"
    assert Media.from_environment({"GIPHY_API_KEY": "  "}).name == "offline"
    assert Media.from_environment({}).name == "offline"


async def test_without_a_key_the_offline_pack_answers_by_its_words():
    media = Media.from_environment({})
    found = (await media.search("frustration")).pictures
    assert found and all(p.provider == "offline" for p in found)
    assert {"sad", "angry"} & {p.id for p in found}
    png = await media.picture(found[0])
    assert Image.open(io.BytesIO(png)).format == "PNG"


def test_every_picture_of_the_offline_pack_is_a_small_png():
    assert len(media_pack.ENTRIES) >= 30
    for entry in media_pack.ENTRIES:
        image = Image.open(io.BytesIO(media_pack.png(entry.id)))
        assert image.size == (96, 96) and image.mode == "RGBA" and image.getbbox() is not None


async def test_klipy_stickers_are_searched_and_downloaded_as_checked_pngs(server):
    media = klipy(server)
    found = (await media.search("victory dance", limit=9)).pictures
    assert len(found) == 9 and found[0].provider == "klipy" and found[0].attribution == "Powered by KLIPY"
    assert server.queries[-1]["searchfilter"] == "sticker" and server.queries[-1]["contentfilter"] == "high"
    image = Image.open(io.BytesIO(await media.picture(found[0])))
    assert image.format == "PNG" and max(image.size) == 128
    assert image.convert("RGB").getpixel((10, 10))[0] > 150  # the first frame (red), not the second
    await media.close()


async def test_giphy_searches_carry_the_servers_rating(server):
    media = giphy(server)
    found = (await media.search("skull", rating="pg-13")).pictures
    assert found[0].provider == "giphy" and found[0].attribution == "Powered by GIPHY"
    assert server.queries[-1]["rating"] == "pg-13" and server.queries[-1]["api_key"] == "g-key"
    await media.close()


async def test_results_are_cached(server):
    media = giphy(server)
    await media.search("cats")
    await media.search("  CATS ")
    assert server.requests["giphy"] == 1
    await media.close()


@pytest.mark.parametrize("query", ["unauthorized", "throttled", "broken", "slow", "htmlpage"])
async def test_a_failing_provider_gives_way_to_the_offline_pack_and_is_left_alone_for_a_while(server, query):
    media = giphy(server, timeout=0.5)
    found = await media.search(query)
    assert found.provider_down and all(p.provider == "offline" for p in found.pictures)
    calls = server.requests["giphy"]
    again = await media.search("victory")
    assert again.provider_down and again.pictures and all(p.provider == "offline" for p in again.pictures)
    assert server.requests["giphy"] == calls  # breaker open
    await media.close()


async def test_a_provider_that_answers_is_not_said_to_be_down(server):
    media = klipy(server)
    assert not (await media.search("nothing")).provider_down  # it answered: nothing found
    assert not (await Media().search("cats")).provider_down  # no provider set: nothing is down
    await media.close()


@pytest.mark.parametrize("provider", [klipy, giphy])
@pytest.mark.parametrize("body", [{"data": "oops"}, {"results": "oops"}, [], [1, 2], "text", 3, None,
                                  {"data": [1, "x", None]}, {"results": [{"media_formats": []}]}])
async def test_an_answer_of_the_wrong_shape_is_a_failed_search(server, provider, body):
    server.answer_with(body)
    media = provider(server)
    found = await media.search("cats")
    assert all(p.provider == "offline" for p in found.pictures)
    shape_is_wrong = not isinstance(body, dict) or not isinstance(body.get("data" if provider is giphy else
                                                                            "results"), list)
    assert found.provider_down == shape_is_wrong and media.breaker.closed != shape_is_wrong
    await media.close()


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["data", "results", "images", "media_formats", "fixed_height_small",
                                         "tinygif_transparent", "preview_gif", "url", "id", "title", "x"]),
                        inner, max_size=5),
                    max_leaves=25)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=JSON, which=st.sampled_from(["klipy", "giphy"]))
async def test_any_json_the_provider_answers_gives_pictures_or_a_failed_search(server, body, which):
    server.answer_with(body)
    media = (klipy if which == "klipy" else giphy)(server)
    found = await media.search("victory")  # never raises
    assert isinstance(found.pictures, list) and found.pictures  # the provider's, else the pack's trophies
    for picture in found.pictures:
        assert picture.provider in (which, "offline") and isinstance(picture.title, str)
        assert picture.provider == "offline" or picture.url.startswith("http")
    if found.provider_down:
        assert not media.breaker.closed and all(p.provider == "offline" for p in found.pictures)
    await media.close()


async def test_giphy_is_asked_at_most_100_times_an_hour(server):
    now = [0.0]
    media = giphy(server, clock=lambda: now[0])
    for n in range(101):
        await media.search(f"word{n}")
    assert server.requests["giphy"] == 100
    now[0] += 3601
    await media.search("one more")
    assert server.requests["giphy"] == 101
    await media.close()


@pytest.mark.parametrize(("query", "reason"), [("huge", "larger than 2 MB"), ("notimage", "not a picture"),
                                                 ("bomb", "far too large")])
async def test_bad_downloads_are_refused_with_a_reason(server, query, reason):
    media = klipy(server)
    found = (await media.search(query)).pictures
    with pytest.raises(MediaError, match=reason):
        await media.picture(found[0])
    await media.close()


def test_a_gif_keeps_its_first_frame_and_is_scaled_down():
    from tests.bot.media_standin import animated_gif

    image = Image.open(io.BytesIO(checked_png(animated_gif())))
    assert image.size == (128, 85) and image.convert("RGB").getpixel((5, 5))[2] < 100
