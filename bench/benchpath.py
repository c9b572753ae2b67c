"""Imported first by every benchmark script.

Run as `python bench/<script>.py`, a script's folder comes first on the import path, and
`bench/engine.py` would shadow the `engine` package. Importing this module takes the folder off
the path again.
"""

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]


def scratch_database(folder: str, address: str | None) -> tuple[str, str | None]:
    """Where a benchmark keeps its database: `address` (a PostgreSQL server) in a fresh schema of
    its own, or, without one, an SQLite file in `folder`; and that schema (None for SQLite), for
    the benchmark to drop afterwards."""
    import uuid

    if not address:
        return str(Path(folder) / "bench.sqlite3"), None
    if not address.startswith(("postgresql://", "postgres://")):
        return address, None
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    return f"{address}{'&' if '?' in address else '?'}search_path={schema}", schema
