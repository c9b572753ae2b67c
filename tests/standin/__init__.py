"""A Discord API stand-in for end-to-end tests of discord.py bots.

See :class:`DiscordStandIn` (server.py) for the entry point, players.py for acting as
users, and model.py for the recorded-message helpers.
"""

from .model import Button, Channel, Guild, RecordedMessage, Role, SelectMenu, User
from .players import InteractionHandle, Said
from .server import DiscordStandIn
from .state import InteractionRecord, StandInTimeout

__all__ = [
    "Button",
    "Channel",
    "DiscordStandIn",
    "Guild",
    "InteractionHandle",
    "InteractionRecord",
    "RecordedMessage",
    "Role",
    "Said",
    "SelectMenu",
    "StandInTimeout",
    "User",
]
