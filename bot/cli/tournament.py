"""`tileref tournament export ID`: a tournament's results as a FIDE Tournament Report File
(`bot.tournaments.export`), written to a file or to the terminal."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.core.i18n import _
from bot.core.refusals import Refused
from bot.storage.store import Store
from bot.tournaments.export import export_trf


async def export_tournament(store: Store, tournament_id: int, out: Path | None) -> int:
    """Write tournament `tournament_id`'s TRF to `out` (or print it). Returns the exit status:
    0 written, 2 refused (an unknown tournament, a format TRF cannot hold), with the reason."""
    await store.open()
    try:
        name, data = await export_trf(store, tournament_id)
    except Refused as refusal:
        print(str(refusal), file=sys.stderr)
        return 2
    finally:
        await store.close()
    if out is None:
        sys.stdout.write(data.decode("utf-8"))
        return 0
    target = out / name if out.is_dir() else out
    target.write_bytes(data)
    print(_("Wrote {path}.").format(path=target), file=sys.stderr)
    return 0
