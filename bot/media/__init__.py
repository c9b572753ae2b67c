"""Pictures beyond the board: GIF and sticker search, the offline pack, replays and spectators' views."""
