"""Where tables are watched on the web: the web server's settings (`TILEREF_WEB`,
`TILEREF_PUBLIC_URL`) and each table's unguessable page address.

A table's page lives at `<public url>/t/<token>`; the token is random (never the thread or table
id), made the first time the table is shown and stored with it for good, so every process of
a sharded bot finds the table from it and a finished game's page stays."""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from dataclasses import dataclass

from bot.core.i18n import _
from bot.core.records import TableRecord
from bot.storage.store import Store
from engine.digits import whole_number

DEFAULT_ADDRESS = "127.0.0.1:8080"
WATCH = "watch"
"""The table meta key holding its token, beside its row in the store's `watch_links`, so its
messages can write the link without asking the database."""
TOKEN_BYTES = 18
"""Random bytes in a token: 144 bits, written in 24 URL-safe characters."""


class WebSettingsError(ValueError):
    """`TILEREF_WEB` or `TILEREF_PUBLIC_URL` cannot be used; the message says what to write."""


@dataclass(frozen=True)
class WebSettings:
    """Where the web server listens (`host` None: it is off) and how links to it are written."""

    host: str | None
    port: int
    public_url: str

    @property
    def enabled(self) -> bool:
        return self.host is not None

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> WebSettings:
        """Read `TILEREF_WEB` (`host:port`, default 127.0.0.1:8080; port 0: any free port; `off`) and
        `TILEREF_PUBLIC_URL` (default `http://<host:port>`). Raises WebSettingsError."""
        env = os.environ if env is None else env
        address = env.get("TILEREF_WEB", "").strip() or DEFAULT_ADDRESS
        if address.lower() in ("off", "no", "0", "false"):
            return cls(None, 0, "")
        host, _colon, port_text = address.rpartition(":")
        host = host.strip("[]")
        port = whole_number(port_text)
        if not host or port is None or not 0 <= port < 65536:
            raise WebSettingsError(_("TILEREF_WEB must be host:port (like {example} or 0.0.0.0:8080) or off, "
                                     "not {value}").format(example=DEFAULT_ADDRESS, value=repr(address)))
        public = env.get("TILEREF_PUBLIC_URL", "").strip().rstrip("/") or f"http://{address}"
        if not public.startswith(("http://", "https://")):
            raise WebSettingsError(_("TILEREF_PUBLIC_URL must start with https:// or http:// (like "
                                     "https://tileref.example.org), not {value}").format(value=repr(public)))
        return cls(host, port, public)


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def page_address(public_url: str, token: str) -> str:
    """The address of the spectator page whose token is `token`."""
    return f"{public_url.rstrip('/')}/t/{token}"


async def page_link(store: Store, table_id: int, public_url: str) -> str:
    """The address of a table's spectator page (its token made and stored if it has none)."""
    return page_address(public_url, await store.watch_token(table_id, new_token()))


class WebLinks:
    """The links the referee writes to tables' web pages. `public_url`: where the web server's
    pages are (`TILEREF_PUBLIC_URL`); None when it is off, and then there are no links."""

    def __init__(self, store: Store, public_url: str | None = None) -> None:
        self.store = store
        self.public_url = public_url

    def watch_line(self, table: TableRecord) -> str:
        """"\n👀 Watch it live…: <link>" for a table whose token is in its meta, when there is a
        web server; else ""."""
        if self.public_url is None or not table.meta.get(WATCH):
            return ""
        link = page_address(self.public_url, table.meta[WATCH])
        return "\n" + _("👀 Watch it live and replay it on the web: {link}").format(link=link)

    async def page(self, table: TableRecord) -> str | None:
        """The address of the table's spectator page, or None when there is no web server."""
        if self.public_url is None:
            return None
        if table.meta.get(WATCH):
            return page_address(self.public_url, table.meta[WATCH])
        return await page_link(self.store, table.id, self.public_url)
