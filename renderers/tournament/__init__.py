"""Pictures of tournaments: the standings table (`standings_png`) and the same in words
(`describe_standings`), from a `StandingsView` the bot fills in the table's language."""

from renderers.tournament.standings import MAX_ROWS, StandingsView, describe_standings, standings_png

__all__ = ["MAX_ROWS", "StandingsView", "describe_standings", "standings_png"]
