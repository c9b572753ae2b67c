"""The `tileref` command: run, play, rules, doctor, copy-db, stats and ratings."""
