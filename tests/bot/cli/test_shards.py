"""Reading `--shards` and `--shard-count`: ranges and lists, and a clear refusal otherwise."""

from __future__ import annotations

import pytest

from bot.cli.main import game_cache_size, main
from bot.cli.shards import ShardError, parse_shards
from bot.storage.loader import DEFAULT_GAME_CACHE


def test_shards_are_read_as_ranges_and_lists():
    assert parse_shards("0-3", "8") == ([0, 1, 2, 3], 8)
    assert parse_shards("6, 4,5-5", 8) == ([4, 5, 6], 8)
    assert parse_shards(None, None) is None


@pytest.mark.parametrize(("shards", "count", "says"), [
    ("0-3", None, "give both"), ("0-8", "8", "8 is not one"), ("3-1", "4", "runs backwards"),
    ("a-b", "4", "like 0-3"), ("0", "zero", "whole number"), ("0", "0", "at least 1"),
    ("0", "٤", "whole number"), ("0-²", "4", "like 0-3"), ("0", "9" * 5_000, "at most 65536"),
    ("0-" + "9" * 5_000, "8", "is not one")])
def test_bad_shard_settings_say_what_to_write(shards, count, says):
    with pytest.raises(ShardError, match=says):
        parse_shards(shards, count)


def test_tileref_run_refuses_bad_shards_before_anything_else(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    assert main(["run", "--shards", "0-9", "--shard-count", "8"]) == 2
    assert "the shards are 0 to 7" in capsys.readouterr().err


def test_the_game_cache_size_is_a_whole_number_of_games():
    assert game_cache_size(None) == game_cache_size(" ") == DEFAULT_GAME_CACHE
    assert game_cache_size("5000") == 5000
    for bad in ("lots", "0", "-3", "2.5", "٥٠٠٠", "9" * 5_000 + "x"):
        with pytest.raises(ValueError, match="TILEREF_GAME_CACHE must be a whole number of games, like 2048"):
            game_cache_size(bad)


def test_tileref_run_refuses_a_bad_game_cache_before_connecting(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")
    monkeypatch.setenv("TILEREF_GAME_CACHE", "lots")
    assert main(["run"]) == 2
    assert "TILEREF_GAME_CACHE must be a whole number" in capsys.readouterr().err
