"""GIF and sticker search for reactions and the chicken-foot vision quest.

One interface, `Media`, over one provider chosen by which key is set: KLIPY (`KLIPY_API_KEY`) or
GIPHY (`GIPHY_API_KEY`), both over their public HTTP APIs. With no key, no network, a provider
that refuses us (401), throttles us (429), fails (5xx, a slow answer) or answers with anything but
the JSON its API documents, the bundled offline pack answers instead: pictures of our own making,
tagged with words (`bot.media.offline_pack`), and the answer says the provider is down.

Every request has a 2-second timeout and every download is capped at 2 MB; results are cached;
calls stay within the provider's rate limit (GIPHY's beta keys allow 100 calls an hour); a
circuit breaker stops calling a provider that failed, for a while. Nothing here is on the path
of a move: a search or a download can be slow or fail without delaying or failing a game.
"""

from __future__ import annotations

import io
import logging
import os
import time
import warnings
from abc import ABC, abstractmethod
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import aiohttp
from PIL import Image

from bot.core.i18n import N_, _
from bot.media import offline_pack as media_pack
from bot.media.picture import Picture

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 2.0
MAX_DOWNLOAD = 2 * 1024 * 1024
RATINGS = ("g", "pg", "pg-13", "r")
"""Content ratings, strictest first; `g` unless a server chooses another."""
PICTURE_SIZE = 128
"""The longest side of a stored picture (a chicken-foot), in pixels."""
MAX_PIXELS = 4096 * 4096
"""Images larger than this are refused before they are decoded (decompression bombs)."""
TOO_BIG = N_("That picture is larger than 2 MB.")
FAR_TOO_LARGE = N_("That picture is far too large.")


class MediaError(Exception):
    """A search or a download failed. `str()` is the reason in English (for logs); `said()` is
    the reason in the language being spoken, as a sentence a user can read."""

    def __init__(self, template: str, **values: object) -> None:
        super().__init__(template.format(**values))
        self.template = template
        self.values = values

    def said(self) -> str:
        return _(self.template).format(**self.values)


@dataclass(frozen=True)
class Found:
    """The answer to a search: the pictures, and whether they are the offline pack's because
    the provider could not be asked or did not answer properly (`provider_down`)."""

    pictures: list[Picture]
    provider_down: bool = False


# ---- providers ---------------------------------------------------------------------------------


class ProviderRefused(MediaError):
    """The provider answered with an error status (kept for the circuit breaker)."""

    def __init__(self, status: int) -> None:
        super().__init__(N_("The picture service answered {status}."), status=status)
        self.status = status


class MalformedAnswer(MediaError):
    """The provider answered 200 with a body that is not the shape its API documents."""

    def __init__(self, what: str) -> None:
        super().__init__(N_("The picture service answered something unexpected."))
        self.what = what


def _mapping(value: object) -> Mapping[str, Any]:
    """`value` if it is a JSON object, else an empty one (a malformed part is skipped)."""
    return value if isinstance(value, Mapping) else {}


def _url(value: object) -> str:
    """`value` if it is an http(s) address, else ""."""
    return value if isinstance(value, str) and value.startswith(("http://", "https://")) else ""


def _text(value: object, default: str) -> str:
    """`value` as a title if it is a non-empty string or a number, else `default`."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return default
    return " ".join(str(value).split())[:200] or default


def _items(body: object, key: str) -> list[Any]:
    """The list under `key` of a JSON object; MalformedAnswer if the body is not that shape."""
    if not isinstance(body, Mapping):
        raise MalformedAnswer(f"a {type(body).__name__} instead of an object")
    items = body.get(key)
    if not isinstance(items, list):
        raise MalformedAnswer(f"{key!r} is a {type(items).__name__}, not a list")
    return items


class Provider(ABC):
    """A GIF/sticker search over HTTP."""

    name: str
    attribution: str
    calls_per_hour: int

    def __init__(self, key: str, base_url: str) -> None:
        self.key = key
        self.base_url = base_url.rstrip("/")

    @abstractmethod
    def search_request(self, query: str, limit: int, rating: str) -> tuple[str, dict[str, str]]:
        """The URL and query parameters of a search."""

    @abstractmethod
    def read_results(self, body: object) -> list[Picture]:
        """The pictures in a search answer, whatever JSON it is: MalformedAnswer if its shape is
        not the documented one (not an object, no list of results); entries that are not
        well-formed results are skipped. Never raises anything else."""


class Klipy(Provider):
    """KLIPY's v2 search (Tenor-compatible answers): stickers with transparent backgrounds."""

    name = "klipy"
    attribution = "Powered by KLIPY"
    calls_per_hour = 3600
    CONTENT_FILTER: ClassVar[dict[str, str]] = {"g": "high", "pg": "medium", "pg-13": "low", "r": "off"}

    def search_request(self, query: str, limit: int, rating: str) -> tuple[str, dict[str, str]]:
        return f"{self.base_url}/search", {
            "q": query, "key": self.key, "client_key": "tileref", "limit": str(limit),
            "searchfilter": "sticker", "contentfilter": self.CONTENT_FILTER.get(rating, "high"),
            "media_filter": "tinygif_transparent,tinygif,gif"}

    def read_results(self, body: object) -> list[Picture]:
        found = []
        for entry in _items(body, "results"):
            item = _mapping(entry)
            formats = _mapping(item.get("media_formats"))
            url = next((u for k in ("tinygif_transparent", "tinygif", "gif")
                        if (u := _url(_mapping(formats.get(k)).get("url")))), "")
            if not url:
                continue
            title = _text(item.get("content_description"), "") or _text(item.get("title"), "sticker")
            found.append(Picture(self.name, _text(item.get("id"), ""), title, url, url, self.attribution))
        return found


class Giphy(Provider):
    """GIPHY's sticker search."""

    name = "giphy"
    attribution = "Powered by GIPHY"
    calls_per_hour = 100

    def search_request(self, query: str, limit: int, rating: str) -> tuple[str, dict[str, str]]:
        return f"{self.base_url}/stickers/search", {
            "api_key": self.key, "q": query[:50], "limit": str(limit), "rating": rating, "lang": "en"}

    def read_results(self, body: object) -> list[Picture]:
        found = []
        for entry in _items(body, "data"):
            item = _mapping(entry)
            images = _mapping(item.get("images"))
            url = _url(_mapping(images.get("fixed_height_small")).get("url")) or \
                _url(_mapping(images.get("fixed_height")).get("url"))
            if not url:
                continue
            preview = _url(_mapping(images.get("preview_gif")).get("url")) or url
            found.append(Picture(self.name, _text(item.get("id"), ""), _text(item.get("title"), "sticker"), url,
                                 preview, self.attribution))
        return found


# ---- staying polite: rate limit and circuit breaker --------------------------------------------


class RateLimit:
    """At most `calls` calls in any `period` seconds."""

    def __init__(self, calls: int, period: float, clock: Callable[[], float]) -> None:
        self.calls = calls
        self.period = period
        self.clock = clock
        self._made: deque[float] = deque()

    def take(self) -> bool:
        """Count a call if one is allowed now; False if the limit is reached."""
        now = self.clock()
        while self._made and self._made[0] <= now - self.period:
            self._made.popleft()
        if len(self._made) >= self.calls:
            return False
        self._made.append(now)
        return True


class CircuitBreaker:
    """Stops calling a provider that failed: an hour after 401 (a wrong key), ten minutes after
    429 (too many calls), a minute after a server error or a timeout."""

    PAUSES: ClassVar[dict[int, float]] = {401: 3600.0, 403: 3600.0, 429: 600.0}
    DEFAULT_PAUSE = 60.0

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.open_until = 0.0

    @property
    def closed(self) -> bool:
        return self.clock() >= self.open_until

    def failed(self, status: int | None) -> None:
        pause = self.PAUSES.get(status or 0, self.DEFAULT_PAUSE)
        self.open_until = max(self.open_until, self.clock() + pause)


# ---- the facade ------------------------------------------------------------------------------


class Media:
    """Searches and downloads for the bot. Use `Media.from_environment()`; close it when done."""

    CACHE_SIZE = 256
    CACHE_SECONDS = 600.0

    def __init__(self, provider: Provider | None = None, *, clock: Callable[[], float] = time.monotonic,
                 timeout: float = TIMEOUT_SECONDS) -> None:
        self.provider = provider
        self.clock = clock
        self.timeout = timeout
        self.limit = RateLimit(provider.calls_per_hour if provider else 0, 3600.0, clock)
        self.breaker = CircuitBreaker(clock)
        self._cache: OrderedDict[tuple[str, str, int], tuple[float, list[Picture]]] = OrderedDict()
        self._session: aiohttp.ClientSession | None = None

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None, **options: Any) -> Media:
        """KLIPY if `KLIPY_API_KEY` is set, else GIPHY if `GIPHY_API_KEY` is, else the offline pack
        alone. `KLIPY_API_URL` / `GIPHY_API_URL` point elsewhere (a proxy, a test server)."""
        env = os.environ if environ is None else environ
        provider: Provider | None = None
        if env.get("KLIPY_API_KEY", "").strip():
            provider = Klipy(env["KLIPY_API_KEY"].strip(), env.get("KLIPY_API_URL") or "https://api.klipy.com/v2")
        elif env.get("GIPHY_API_KEY", "").strip():
            provider = Giphy(env["GIPHY_API_KEY"].strip(), env.get("GIPHY_API_URL") or "https://api.giphy.com/v1")
        return cls(provider, **options)

    @property
    def name(self) -> str:
        return self.provider.name if self.provider else "offline"

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None

    def _http(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=self.timeout))
        return self._session

    async def search(self, query: str, *, rating: str = "g", limit: int = 9) -> Found:
        """Up to `limit` pictures for `query`, from the provider if it can answer now, else from
        the offline pack (which always answers, possibly with nothing; `provider_down` then says
        that a provider is set but could not be asked or failed). Never raises."""
        query = " ".join(query.split())[:100]
        rating = rating if rating in RATINGS else "g"
        if not query:
            return Found(media_pack.search("", limit))
        key = (query.lower(), rating, limit)
        cached = self._cache.get(key)
        if cached is not None and cached[0] > self.clock():
            self._cache.move_to_end(key)
            return Found(cached[1] or media_pack.search(query, limit))
        found = await self._provider_search(query, rating, limit)
        if found is None:
            return Found(media_pack.search(query, limit), provider_down=self.provider is not None)
        self._cache[key] = (self.clock() + self.CACHE_SECONDS, found)
        while len(self._cache) > self.CACHE_SIZE:
            self._cache.popitem(last=False)
        return Found(found or media_pack.search(query, limit))

    async def _provider_search(self, query: str, rating: str, limit: int) -> list[Picture] | None:
        """The provider's answer, or None when it may not or could not be asked."""
        provider = self.provider
        if provider is None or not self.breaker.closed or not self.limit.take():
            return None
        url, params = provider.search_request(query, limit, rating)
        try:
            async with self._http().get(url, params=params) as response:
                if response.status != 200:
                    raise ProviderRefused(response.status)
                body = await response.json(content_type=None)
            return provider.read_results(body)[:limit]
        except ProviderRefused as refused:
            log.warning("%s search refused with %s; using the offline pack for a while", provider.name,
                        refused.status)
            self.breaker.failed(refused.status)
        except MalformedAnswer as malformed:
            log.warning("%s answered a search with %s; using the offline pack for a while", provider.name,
                        malformed.what)
            self.breaker.failed(None)
        except (aiohttp.ClientError, TimeoutError, ValueError):
            log.warning("%s search failed; using the offline pack for a while", provider.name, exc_info=True)
            self.breaker.failed(None)
        return None

    async def picture(self, chosen: Picture) -> bytes:
        """The chosen picture as a checked, scaled PNG (see `checked_png`); MediaError if it cannot
        be had."""
        if chosen.data:
            return checked_png(chosen.data)
        if not chosen.url.startswith(("http://", "https://")):
            raise MediaError(N_("That picture has no address to fetch it from."))
        try:
            async with self._http().get(chosen.url) as response:
                if response.status != 200:
                    raise MediaError(N_("That picture could not be fetched (the service answered {status})."),
                                     status=response.status)
                if (response.content_length or 0) > MAX_DOWNLOAD:
                    raise MediaError(TOO_BIG)
                data = bytearray()
                async for chunk in response.content.iter_chunked(65536):
                    data += chunk
                    if len(data) > MAX_DOWNLOAD:
                        raise MediaError(TOO_BIG)
        except (aiohttp.ClientError, TimeoutError):
            raise MediaError(N_("That picture could not be fetched in time.")) from None
        return checked_png(bytes(data))


def checked_png(data: bytes, *, size: int = PICTURE_SIZE) -> bytes:
    """`data` as a PNG of at most `size` pixels a side, if it is a real image of sane dimensions
    (the first frame of an animation); MediaError otherwise."""
    if len(data) > MAX_DOWNLOAD:
        raise MediaError(TOO_BIG)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            if image.width * image.height > MAX_PIXELS:
                raise MediaError(FAR_TOO_LARGE)
            image.seek(0)
            frame = image.convert("RGBA")
    except MediaError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise MediaError(FAR_TOO_LARGE) from None
    except Exception:
        raise MediaError(N_("That is not a picture I can read.")) from None
    frame.thumbnail((size, size))
    out = io.BytesIO()
    frame.save(out, format="PNG", optimize=True)
    return out.getvalue()


def decoded(png: bytes) -> Image.Image:
    """A stored picture as an image (RGBA)."""
    return Image.open(io.BytesIO(png)).convert("RGBA")
