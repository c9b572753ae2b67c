"""`python -m bot`: the `tileref` command (bot/cli/main.py)."""

import sys

from bot.cli.main import main

if __name__ == "__main__":
    sys.exit(main())
