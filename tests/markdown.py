"""Reading the project's Markdown the way GitHub shows it: fenced blocks (with the `runnable`
comment before one), the text outside them, inline code, relative links and heading anchors.
Used by tests/test_docs.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

FENCE = re.compile(r"^(\s*)```(.*)$")
MARKER = re.compile(r"^\s*<!--\s*runnable\b(.*?)-->\s*$")
ATTRIBUTE = re.compile(r"""(\w+)=(?:"([^"]*)"|'([^']*)')""")
INLINE_CODE = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\[[^\]\n]*\]\(([^)\s]+)\)|<(?:img|a)\b[^>]*\b(?:src|href)=\"([^\"]+)\"")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


@dataclass(frozen=True)
class Block:
    """One fenced block: where it starts (the fence's line, counted from 1), its language (the
    fence's info string), its text without the fence's indentation, and, when the line before it
    is a `<!-- runnable ... -->` comment, that comment's attributes (each name to its values)."""

    document: Path
    line: int
    language: str
    text: str
    runnable: dict[str, list[str]] | None = None

    @property
    def where(self) -> str:
        return f"{self.document.name}:{self.line}"


@dataclass(frozen=True)
class Document:
    """A Markdown file split into its fenced blocks and the lines outside them (as (line number,
    text) pairs), with the runnable comments that lead to no block."""

    path: Path
    blocks: list[Block]
    prose: list[tuple[int, str]]
    stray_markers: list[int] = field(default_factory=list)


def attributes(text: str) -> dict[str, list[str]]:
    """`stdin="quit" expect="a" expect='"b"'` -> {"stdin": ["quit"], "expect": ["a", '"b"']}."""
    found: dict[str, list[str]] = {}
    for name, double, single in ATTRIBUTE.findall(text):
        found.setdefault(name, []).append(double or single)
    return found


def read(path: Path) -> Document:
    """Split `path` into blocks and prose. An unclosed fence runs to the end, as GitHub shows it."""
    blocks: list[Block] = []
    prose: list[tuple[int, str]] = []
    stray: list[int] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    marker: tuple[int, dict[str, list[str]]] | None = None
    index = 0
    while index < len(lines):
        line = lines[index]
        number = index + 1
        fence = FENCE.match(line)
        if fence:
            indent, language = fence.group(1), fence.group(2).strip()
            body: list[str] = []
            index += 1
            while index < len(lines) and not lines[index].strip().startswith("```"):
                body.append(lines[index].removeprefix(indent))
                index += 1
            runnable = marker[1] if marker and marker[0] == number - 1 else None
            if marker and runnable is None:
                stray.append(marker[0])
            marker = None
            blocks.append(Block(path, number, language, "\n".join(body) + "\n", runnable))
        else:
            found = MARKER.match(line)
            if found:
                if marker:
                    stray.append(marker[0])
                marker = (number, attributes(found.group(1)))
            elif marker and line.strip():
                stray.append(marker[0])
                marker = None
            prose.append((number, line))
        index += 1
    if marker:
        stray.append(marker[0])
    return Document(path, blocks, prose, stray)


def inline_code(document: Document) -> list[tuple[int, str]]:
    """Every inline code span outside the fenced blocks, with its line."""
    return [(number, span) for number, line in document.prose for span in INLINE_CODE.findall(line)]


def links(document: Document) -> list[tuple[int, str]]:
    """Every link target outside fenced blocks and inline code: Markdown links, and the `src` or
    `href` of HTML images and anchors."""
    found = []
    for number, line in document.prose:
        text = INLINE_CODE.sub("", line)
        for markdown, html in LINK.findall(text):
            found.append((number, markdown or html))
    return found


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text without markup, in lower case, with every
    character but letters, digits, `_`, `-` and spaces dropped and the spaces made hyphens."""
    text = re.sub(r"<[^>]+>", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text.lower())
    return text.replace(" ", "-")


def anchors(document: Document) -> set[str]:
    """The anchors of every heading in `document` (a repeated heading's get -1, -2, ...)."""
    seen: dict[str, int] = {}
    found = set()
    for _, line in document.prose:
        heading = HEADING.match(line)
        if not heading:
            continue
        base = slug(heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found
