"""The websocket gateway of the stand-in (Discord gateway v10, JSON encoding).

Implements HELLO / IDENTIFY → READY + GUILD_CREATE / HEARTBEAT → HEARTBEAT_ACK /
RESUME (replaying missed dispatches, or INVALID_SESSION when the session is gone) /
REQUEST_GUILD_MEMBERS, transport compression (``zlib-stream``, and ``zstd-stream``
when a zstd module is importable), sequence numbers and intent filtering.  Several
clients may connect one after the other; dispatches go to the most recently
identified session that has not been closed cleanly.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import secrets
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

if TYPE_CHECKING:
    from .state import StandInState

log = logging.getLogger("tests.standin.gateway")

JSON = dict[str, Any]

# Gateway opcodes
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# Intents (https://discord.com/developers/docs/events/gateway#gateway-intents)
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = {
    "members": GUILD_MEMBERS,
    "presences": GUILD_PRESENCES,
    "message_content": MESSAGE_CONTENT,
}


def make_encoder(compress: str | None) -> Callable[[bytes], bytes] | None:
    """A per-connection transport compressor for the ``compress`` query value, or None for plain text."""
    if not compress:
        return None
    if compress == "zlib-stream":
        zctx = zlib.compressobj()
        return lambda data: zctx.compress(data) + zctx.flush(zlib.Z_SYNC_FLUSH)
    if compress == "zstd-stream":
        try:
            import zstandard  # type: ignore[import-not-found]
        except ImportError:
            from compression.zstd import ZstdCompressor  # type: ignore[import-not-found]

            sctx = ZstdCompressor()
            return lambda data: sctx.compress(data, mode=ZstdCompressor.FLUSH_BLOCK)
        cobj = zstandard.ZstdCompressor().compressobj()
        return lambda data: cobj.compress(data) + cobj.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
    raise ValueError(f"unsupported transport compression {compress!r}")


class Connection:
    """One websocket connection; sends frames in order through its compressor."""

    def __init__(self, ws: web.WebSocketResponse, encoder: Callable[[bytes], bytes] | None) -> None:
        self.ws = ws
        self.encoder = encoder
        self.lock = asyncio.Lock()
        self.session: Session | None = None

    async def send(self, frame: JSON) -> None:
        raw = json.dumps(frame, separators=(",", ":")).encode()
        async with self.lock:
            if self.ws.closed:
                return
            try:
                if self.encoder is None:
                    await self.ws.send_str(raw.decode())
                else:
                    await self.ws.send_bytes(self.encoder(raw))
            except ConnectionError:  # peer went away while we were sending
                log.debug("gateway send failed; connection closing")


@dataclass(eq=False)
class Session:
    """A gateway session: survives reconnects (RESUME) until closed with 1000/1001."""

    id: str
    number: int
    intents: int
    token: str
    shard: tuple[int, int] | None
    seq: int = 0
    history: collections.deque[tuple[int, JSON]] = field(
        default_factory=lambda: collections.deque(maxlen=2000)
    )
    conn: Connection | None = None
    invalidated: bool = False
    ready: bool = False

    def wants_guild(self, guild_id: int) -> bool:
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return (guild_id >> 22) % max(count, 1) == shard_id


class Gateway:
    """Gateway endpoint and session registry; owned by :class:`~tests.standin.state.StandInState`."""

    def __init__(self, state: StandInState, *, heartbeat_interval_ms: int) -> None:
        self.state = state
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.sessions: dict[str, Session] = {}
        self.connections: set[web.WebSocketResponse] = set()
        self.session_count = 0
        self.ready_count = 0
        self.resume_count = 0
        #: Query strings of every gateway connection (v, encoding, compress), in order.
        self.connect_queries: list[dict[str, str]] = []
        self.identify_payloads: list[JSON] = []
        self.presence_updates: list[JSON] = []

    # -- public -------------------------------------------------------------------------

    @property
    def active(self) -> Session | None:
        """The session dispatches go to: the newest identified, not-invalidated one."""
        live = [s for s in self.sessions.values() if not s.invalidated and s.ready]
        return max(live, key=lambda s: s.number) if live else None

    async def dispatch(
        self, event: str, data: JSON, *, intents: int = 0, guild_id: int | None = None
    ) -> bool:
        """Send a DISPATCH to the active session (for a guild's event, the newest session whose
        shard holds the guild) if it subscribed to ``intents`` (any bit).

        Returns False if no session is active or the event was filtered out.  Events for a
        session whose connection is momentarily down are kept for its RESUME.
        """
        session = self.active if guild_id is None else self.session_for(guild_id)
        if session is None:
            return False
        if intents and not session.intents & intents:
            return False
        if guild_id is not None and not session.wants_guild(guild_id):
            return False
        await self._send_dispatch(session, event, data)
        return True

    def session_for(self, guild_id: int) -> Session | None:
        """The newest live session whose shard holds ``guild_id`` (every session, unsharded)."""
        live = [s for s in self.sessions.values() if not s.invalidated and s.ready and s.wants_guild(guild_id)]
        return max(live, key=lambda s: s.number) if live else None

    async def reconnect_active(self, *, resume: bool) -> None:
        """Ask the connected client to reconnect: op 7 RECONNECT (resume) or op 9 INVALID_SESSION."""
        session = self.active
        if session is None or session.conn is None:
            raise RuntimeError("no bot is connected to the stand-in gateway")
        if resume:
            await session.conn.send({"op": RECONNECT, "d": None})
        else:
            session.invalidated = True
            await session.conn.send({"op": INVALID_SESSION, "d": False})

    async def close_all(self) -> None:
        for ws in list(self.connections):
            await ws.close(code=1001, message=b"stand-in stopping")

    # -- websocket handler ----------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self.connect_queries.append(dict(request.query))
        version = request.query.get("v", "10")
        encoding = request.query.get("encoding", "json")
        try:
            if version not in ("9", "10"):
                raise ValueError(f"unsupported gateway version {version}")
            if encoding != "json":
                raise ValueError(f"unsupported gateway encoding {encoding}")
            encoder = make_encoder(request.query.get("compress"))
        except (ValueError, ImportError) as exc:
            self.state.note_unhandled(f"GATEWAY {request.path_qs}: {exc}")
            await ws.close(code=4012, message=str(exc).encode())
            return ws
        conn = Connection(ws, encoder)
        self.connections.add(ws)
        try:
            await conn.send(
                {"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}, "s": None, "t": None}
            )
            async for msg in ws:
                if msg.type is WSMsgType.TEXT:
                    await self._on_frame(conn, json.loads(msg.data))
                elif msg.type is WSMsgType.BINARY:
                    self.state.note_unhandled("GATEWAY binary frame from client (unsupported)")
                elif msg.type is WSMsgType.ERROR:
                    break
        finally:
            self.connections.discard(ws)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                if ws.close_code in (1000, 1001):
                    session.invalidated = True
                    self.state.notify()
        return ws

    async def _on_frame(self, conn: Connection, frame: JSON) -> None:
        op = frame.get("op")
        data = frame.get("d")
        if op == HEARTBEAT:
            await conn.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == IDENTIFY:
            await self._identify(conn, data or {})
        elif op == RESUME:
            await self._resume(conn, data or {})
        elif op == PRESENCE:
            self.presence_updates.append(data or {})
        elif op == REQUEST_MEMBERS:
            await self._request_members(conn, data or {})
        elif op == VOICE_STATE:
            pass
        else:
            self.state.note_unhandled(f"GATEWAY op {op}: {frame!r}")

    async def _identify(self, conn: Connection, data: JSON) -> None:
        token = str(data.get("token", ""))
        if not self.state.token_ok(token):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        if intents & ~self.state.allowed_privileged_intents & sum(PRIVILEGED_INTENTS.values()):
            await conn.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        shard = data.get("shard")
        self.identify_payloads.append(data)
        self.session_count += 1
        session = Session(
            id=secrets.token_hex(16),
            number=self.session_count,
            intents=intents,
            token=token,
            shard=(int(shard[0]), int(shard[1])) if shard else None,
        )
        self.sessions[session.id] = session
        session.conn = conn
        conn.session = session
        ready = self.state.ready_payload(session)
        await self._send_dispatch(session, "READY", ready)
        for guild_json in self.state.guild_create_payloads(session):
            await self._send_dispatch(session, "GUILD_CREATE", guild_json)
        session.ready = True
        self.ready_count += 1
        self.state.notify()

    async def _resume(self, conn: Connection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or session.invalidated or not self.state.token_ok(str(data.get("token", ""))):
            await conn.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        old = session.conn
        session.conn = conn
        conn.session = session
        if old is not None and old is not conn:
            await old.ws.close(code=4000)
        since = int(data.get("seq") or 0)
        for seq, frame in list(session.history):
            if seq > since:
                await conn.send(frame)
        await self._send_dispatch(session, "RESUMED", {})
        self.resume_count += 1
        self.state.notify()

    async def _request_members(self, conn: Connection, data: JSON) -> None:
        guild_ids = data.get("guild_id")
        for gid in guild_ids if isinstance(guild_ids, list) else [guild_ids or 0]:
            members = self.state.members_chunk(
                int(gid),
                query=data.get("query"),
                limit=int(data.get("limit") or 0),
                user_ids=[int(u) for u in data.get("user_ids") or []],
            )
            chunk: JSON = {
                "guild_id": str(gid),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if data.get("nonce"):
                chunk["nonce"] = data["nonce"]
            if conn.session is not None:
                await self._send_dispatch(conn.session, "GUILD_MEMBERS_CHUNK", chunk)

    async def _send_dispatch(self, session: Session, event: str, data: JSON) -> None:
        session.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": session.seq, "d": data}
        session.history.append((session.seq, frame))
        if session.conn is not None:
            await session.conn.send(frame)
