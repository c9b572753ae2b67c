"""The keys of a table's meta: the options it was opened with, and what the referee notes on it as
the game goes."""

LANGUAGE = "lang"
"""A table option: the language spoken at the table."""
AI_SECONDS = "ai_seconds"
"""A table option: how long its AI seats plan a move, in seconds."""
AI_LEVEL = "ai_level"
"""A table option: the level (`engine.levels.LEVELS`) of a bot added without naming one."""
PALETTE = "palette"
"""A table option: how its pictures look, `normal` (in colour) or `mono` (high contrast, in greys;
`renderers.palettes`). Wherever the referee reads a table to draw it, it draws in this look."""
REPLAY = "replay"
"""A table option: whether an animated replay is posted when the game ends (on by default)."""
WAITING = "waiting"
"""The seats of people the game waits for (what /games reads)."""
QUESTS = "quests"
"""The seats already sent on their vision quest."""
FOOT = "foot"
"""The kind of picture a chicken-footed player chose (drawn at the end of their line)."""
CLOCK = "clock"
"""A table option: its bank (`bot.core.time_controls.Bank.data`) when its time control is a bank;
absent for a fixed time per move (the table's `turn_seconds`) or no clock."""
VACATION = "vacation"
"""A table option: whether its players' vacations stop their clocks here (True unless `vacation=off`)."""
BANKS = "banks"
"""Each seat's bank (seconds, by seat number as text) as it stood when its current or last turn began."""
BANK_LOG = "bank_log"
"""Each seat's bank after each move that changed one (by the log's length then, as text; each
entry all the seats' banks, as `BANKS`): what a moderator's rollback restores the banks from."""
BEGAN = "began"
"""Each clocked seat's current turn: `[ply, moment it began]` by seat number as text (its deadline
is computed from it, the seat's bank or the turn time, and the seat's unavailable intervals)."""
PINGED = "pinged"
"""Each seat's last turn (the game's `turn_count` and the move its clock started at) whose
beginning pinged its player: a turn pings a player at most once."""
ABSENT = "absent"
"""A table option: what a missed deadline does at a table of three or more seats (`bot.core.absence`)."""
AWAY = "away"
"""The seats whose players are away now, each with what is done for them (`bot.core.absence`)."""
LOBBY_MESSAGE = "lobby_message"
"""Where the transport posted the table's lobby message (Discord: its id), noted so it can be
edited later: when a moderator removes someone, when players go away and come back."""
