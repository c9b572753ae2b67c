"""Which shards of the Discord gateway a process runs: `--shards 0-3 --shard-count 8` (or
TILEREF_SHARDS and TILEREF_SHARD_COUNT). Discord routes a server to shard
`(server id >> 22) % shard count`; every process of one bot must use the same count."""

from __future__ import annotations

from engine.digits import whole_number

MOST_SHARDS = 65_536
"""The largest shard count read (far beyond any bot's), so a mistyped count never lists millions of shards."""


class ShardError(ValueError):
    """The shard settings cannot be used; the message says what to write instead."""


def parse_shards(shards: str | None, count: str | int | None) -> tuple[list[int], int] | None:
    """`"0-3"`, `"0,2,5"` or `"4"` with a count -> (the shard ids, the count); None when neither
    is given (one process, all of the bot's servers)."""
    if not shards and not count:
        return None
    if not shards or not count:
        raise ShardError("give both --shards (like 0-3) and --shard-count (like 8), or neither")
    total = whole_number(str(count))
    if total is None:
        raise ShardError(f"--shard-count is a whole number like 8, not '{count}'")
    if not 1 <= total <= MOST_SHARDS:
        raise ShardError(f"--shard-count must be at least 1 and at most {MOST_SHARDS}")
    ids: set[int] = set()
    for part in str(shards).replace(" ", "").split(","):
        low, _, high = part.partition("-")
        first, last = whole_number(low), whole_number(high or low)
        if first is None or last is None:
            raise ShardError(f"--shards lists shard numbers like 0-3 or 0,2,5, not '{shards}'")
        if first > last:
            raise ShardError(f"--shards range {part} runs backwards: write {last}-{first}")
        if last >= total:
            raise ShardError(f"with --shard-count {total} the shards are 0 to {total - 1}; {last} is not one")
        ids.update(range(first, last + 1))
    return sorted(ids), total
