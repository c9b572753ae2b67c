"""A stand-in for the KLIPY and GIPHY HTTP APIs on 127.0.0.1: sticker searches and image
downloads, and every way they fail (401, 429, 500, slow answers, an HTML page instead of JSON, JSON
of the wrong shape, a 50 MB body, a file that is not an image, a decompression bomb). Searches for
words that name a failure produce it; `answer_with(body)` makes every search answer 200 with
`body` (any JSON, or raw bytes)."""

from __future__ import annotations

import asyncio
import io
import json
from collections import Counter
from typing import Any

from aiohttp import web
from PIL import Image

FAILURES = {"unauthorized": 401, "throttled": 429, "broken": 500}


def animated_gif() -> bytes:
    """A 300×200 two-frame GIF: red, then blue."""
    frames = [Image.new("RGB", (300, 200), colour) for colour in ((220, 30, 30), (30, 30, 220))]
    out = io.BytesIO()
    frames[0].save(out, format="GIF", save_all=True, append_images=frames[1:], duration=100, loop=0)
    return out.getvalue()


def bomb_png() -> bytes:
    """A small file that decodes to 20000×20000 pixels."""
    out = io.BytesIO()
    Image.new("1", (20000, 20000), 0).save(out, format="PNG", optimize=True)
    return out.getvalue()


class MediaStandIn:
    def __init__(self) -> None:
        self.requests: Counter[str] = Counter()
        self.queries: list[dict[str, str]] = []
        self.base_url = ""
        self._runner: web.AppRunner | None = None
        self._gif = animated_gif()
        self._bomb = bomb_png()
        self.canned: bytes | None = None
        self.delay = 0.0

    def answer_with(self, body: Any) -> None:
        """Answer every search from now on with status 200 and `body`: bytes as they are,
        anything else (None included) as JSON."""
        self.canned = body if isinstance(body, bytes) else json.dumps(body).encode()

    async def __aenter__(self) -> MediaStandIn:
        app = web.Application()
        app.router.add_get("/klipy/v2/search", self.klipy_search)
        app.router.add_get("/giphy/v1/stickers/search", self.giphy_search)
        app.router.add_get("/files/{name}", self.file)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        host, port = self._runner.addresses[0][:2]
        self.base_url = f"http://{host}:{port}"
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def klipy_url(self) -> str:
        return f"{self.base_url}/klipy/v2"

    @property
    def giphy_url(self) -> str:
        return f"{self.base_url}/giphy/v1"

    async def _failure(self, query: str) -> web.Response | None:
        if self.delay:
            await asyncio.sleep(self.delay)
        if self.canned is not None:
            return web.Response(body=self.canned, content_type="application/json")
        if query == "slow":
            await asyncio.sleep(3)
        if "htmlpage" in query:
            return web.Response(text="<html><body>Service Unavailable</body></html>", content_type="text/html")
        for word, status in FAILURES.items():
            if word in query:
                return web.json_response({"error": word}, status=status)
        return None

    def _files(self, query: str) -> list[str]:
        if "notimage" in query:
            return ["notimage.gif"]
        if "huge" in query:
            return ["huge.gif"]
        if "bomb" in query:
            return ["bomb.png"]
        if "nothing" in query:
            return []
        return [f"sticker-{n}.gif" for n in range(12)]

    async def _search(self, request: web.Request, provider: str) -> tuple[str, list[str]] | web.Response:
        """Record a search; its failure response if the query names one, else (query, files)."""
        self.requests[provider] += 1
        query = request.query.get("q", "")
        self.queries.append(dict(request.query))
        failure = await self._failure(query)
        if failure is not None:
            return failure
        return query, self._files(query)[:int(request.query.get("limit", "9"))]

    async def klipy_search(self, request: web.Request) -> web.Response:
        found = await self._search(request, "klipy")
        if isinstance(found, web.Response):
            return found
        query, names = found
        results = [{"id": name, "content_description": f"{query} {name}",
                    "media_formats": {"tinygif_transparent": {"url": f"{self.base_url}/files/{name}",
                                                              "dims": [300, 200]}}} for name in names]
        return web.json_response({"results": results, "next": ""})

    async def giphy_search(self, request: web.Request) -> web.Response:
        found = await self._search(request, "giphy")
        if isinstance(found, web.Response):
            return found
        query, names = found
        data = [{"id": name, "title": f"{query} {name}",
                 "images": {"fixed_height_small": {"url": f"{self.base_url}/files/{name}"},
                            "preview_gif": {"url": f"{self.base_url}/files/{name}"}}} for name in names]
        return web.json_response({"data": data, "meta": {"status": 200, "msg": "OK"}})

    async def file(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        self.requests[f"file:{name}"] += 1
        if name == "notimage.gif":
            return web.Response(body=b"<html>not an image</html>", content_type="image/gif")
        if name == "bomb.png":
            return web.Response(body=self._bomb, content_type="image/png")
        if name == "huge.gif":
            response = web.StreamResponse(headers={"Content-Type": "image/gif"})
            await response.prepare(request)
            chunk = b"\0" * (1024 * 1024)
            try:
                for _ in range(50):
                    await response.write(chunk)
            except (ConnectionResetError, RuntimeError):
                pass
            return response
        return web.Response(body=self._gif, content_type="image/gif")
