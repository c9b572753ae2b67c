"""A Discord API stand-in for end-to-end tests of discord.py bots.

See :class:`DiscordStandIn` (server.py) for the entry point, players.py for acting as
users, model.py for the recorded-message helpers, and permissions.py for what a member may
do in a channel.
"""

from .model import Button, Channel, Guild, Overwrite, RecordedMessage, Role, SelectMenu, User
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
    "Overwrite",
    "RecordedMessage",
    "Role",
    "Said",
    "SelectMenu",
    "StandInTimeout",
    "User",
]
