"""A picture found by a search: what reactions and the vision quest pass around."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Picture:
    """One search result. `url` is the image to download (empty for the offline pack, whose
    PNG is in `data`); `attribution` is shown wherever the picture appears."""

    provider: str
    id: str
    title: str
    url: str = ""
    preview_url: str = ""
    attribution: str = ""
    data: bytes = b""

    @property
    def source(self) -> str:
        """Where it came from, as stored with a chosen picture: `giphy:abc123`."""
        return f"{self.provider}:{self.id}"
