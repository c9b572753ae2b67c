"""Where tables live: the Store interface, its SQLite and PostgreSQL stores, and loading a game from its log."""
