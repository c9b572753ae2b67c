"""Per-game hooks for the contract tests (see `hooks` in test_contract.py)."""
