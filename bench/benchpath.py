"""Imported first by every benchmark script.

Run as `python bench/<script>.py`, a script's folder comes first on the import path, and
`bench/engine.py` would shadow the `engine` package. Importing this module takes the folder off
the path again.
"""

import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
