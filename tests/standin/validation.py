"""The subset of Discord's request validation that a bot can realistically trip over.

Each ``check_*`` function returns a list of ``(dotted.path, code, message)`` problems;
an empty list means Discord would accept the payload.  :func:`form_error` turns them
into Discord's ``50035 Invalid Form Body`` JSON, which discord.py parses into an
``HTTPException`` whose text names the offending field.
"""

from __future__ import annotations

import re
from typing import Any

Problem = tuple[str, str, str]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_FILE_SIZE = 10 * 1024 * 1024
MAX_CHOICES = 25
MAX_ATTACHMENT_DESCRIPTION = 1024
COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def form_error(problems: list[Problem]) -> dict[str, Any]:
    """Discord's JSON body for a 400 Invalid Form Body error."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "errors": errors, "message": "Invalid Form Body"}


def _too_long(path: str, value: Any, limit: int) -> list[Problem]:
    if isinstance(value, str) and len(value) > limit:
        return [(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def check_message(
    payload: dict[str, Any], files: list[tuple[str, bytes]], *, editing: bool = False
) -> list[Problem]:
    """Validate a create/edit message payload (content, embeds, components, files)."""
    problems: list[Problem] = []
    content = payload.get("content")
    problems += _too_long("content", content, MAX_CONTENT)
    embeds = payload.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        problems.append(("embeds", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_EMBEDS} or fewer in length."))
    total = 0
    for i, e in enumerate(embeds):
        p = f"embeds.{i}"
        problems += _too_long(f"{p}.title", e.get("title"), 256)
        problems += _too_long(f"{p}.description", e.get("description"), 4096)
        problems += _too_long(f"{p}.footer.text", (e.get("footer") or {}).get("text"), 2048)
        problems += _too_long(f"{p}.author.name", (e.get("author") or {}).get("name"), 256)
        fields = e.get("fields") or []
        if len(fields) > 25:
            problems.append((f"{p}.fields", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        for j, f in enumerate(fields):
            problems += _too_long(f"{p}.fields.{j}.name", f.get("name"), 256)
            problems += _too_long(f"{p}.fields.{j}.value", f.get("value"), 1024)
            if not f.get("name") or not f.get("value"):
                problems.append((f"{p}.fields.{j}", "BASE_TYPE_REQUIRED", "This field is required"))
        total += sum(len(str(e.get(k) or "")) for k in ("title", "description"))
        total += sum(len(str(f.get("name", ""))) + len(str(f.get("value", ""))) for f in fields)
    if total > MAX_EMBED_TOTAL:
        problems.append(("embeds", "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000"))
    problems += check_components(
        payload.get("components") or [], v2=bool(int(payload.get("flags") or 0) & (1 << 15))
    )
    for i, attachment in enumerate(payload.get("attachments") or []):
        if isinstance(attachment, dict):
            problems += _too_long(f"attachments.{i}.description", attachment.get("description"),
                                  MAX_ATTACHMENT_DESCRIPTION)
    if len(files) > MAX_FILES:
        problems.append(("files", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."))
    for name, data in files:
        if len(data) > MAX_FILE_SIZE:
            problems.append((f"files.{name}", "BASE_TYPE_MAX_LENGTH", "Request entity too large"))
    return problems


def check_components(components: list[dict[str, Any]], *, v2: bool = False) -> list[Problem]:
    """Validate message components (legacy action rows, or components v2 when ``v2``)."""
    problems: list[Problem] = []
    if not v2 and len(components) > 5:
        problems.append(("components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length."))
    seen: set[str] = set()

    def visit(comp: dict[str, Any], path: str, in_row: bool) -> None:
        ctype = comp.get("type")
        if ctype == 1:
            children = comp.get("components") or []
            if not children:
                problems.append(
                    (f"{path}.components", "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
                )
            if len(children) > 5:
                problems.append(
                    (f"{path}.components", "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
                )
            if any(c.get("type") in (3, 5, 6, 7, 8) for c in children) and len(children) > 1:
                problems.append((f"{path}.components", "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Too wide"))
            for i, c in enumerate(children):
                visit(c, f"{path}.components.{i}", True)
            return
        if ctype in (2, 3, 5, 6, 7, 8) and not in_row and not v2:
            problems.append(
                (f"{path}.type", "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).')
            )
        if ctype == 2:
            style = comp.get("style")
            problems.extend(_too_long(f"{path}.label", comp.get("label"), 80))
            if style == 5 and not comp.get("url"):
                problems.append((f"{path}.url", "BASE_TYPE_REQUIRED", "This field is required"))
            elif style not in (5, 6) and not comp.get("custom_id"):
                problems.append((f"{path}.custom_id", "BASE_TYPE_REQUIRED", "This field is required"))
            if not comp.get("label") and not comp.get("emoji") and style != 6:
                problems.append((f"{path}.label", "BASE_TYPE_REQUIRED", "A label or emoji is required"))
        if ctype in (3, 5, 6, 7, 8):
            options = comp.get("options") or []
            if ctype == 3 and not 1 <= len(options) <= 25:
                problems.append(
                    (f"{path}.options", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
                )
            for i, o in enumerate(options):
                problems.extend(_too_long(f"{path}.options.{i}.label", o.get("label"), 100))
                problems.extend(_too_long(f"{path}.options.{i}.value", o.get("value"), 100))
        cid = comp.get("custom_id")
        if cid is not None:
            problems.extend(_too_long(f"{path}.custom_id", cid, 100))
            if cid in seen:
                problems.append(
                    (
                        f"{path}.custom_id",
                        "COMPONENT_CUSTOM_ID_DUPLICATED",
                        "Component custom id cannot be duplicated",
                    )
                )
            seen.add(cid)
        for key in ("components",):
            for i, c in enumerate(comp.get(key) or []):
                visit(c, f"{path}.{key}.{i}", ctype == 1)
        for key in ("accessory", "component"):
            if isinstance(comp.get(key), dict):
                visit(comp[key], f"{path}.{key}", True)

    for i, comp in enumerate(components):
        visit(comp, f"components.{i}", False)
    return problems


def is_empty_message(payload: dict[str, Any], files: list[tuple[str, bytes]]) -> bool:
    """True if Discord would refuse the message with 50006 "Cannot send an empty message"."""
    return not (
        payload.get("content")
        or payload.get("embeds")
        or files
        or payload.get("components")
        or payload.get("sticker_ids")
        or payload.get("poll")
        or payload.get("attachments")
    )


def check_choices(choices: list[dict[str, Any]]) -> list[Problem]:
    """Validate an autocomplete result."""
    problems: list[Problem] = []
    if len(choices) > MAX_CHOICES:
        problems.append(
            ("data.choices", "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_CHOICES} or fewer in length.")
        )
    for i, c in enumerate(choices):
        name = c.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= 100:
            problems.append(
                (f"data.choices.{i}.name", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
            )
        if isinstance(c.get("value"), str):
            problems += _too_long(f"data.choices.{i}.value", c["value"], 100)
    return problems


def check_commands(commands: list[dict[str, Any]]) -> list[Problem]:
    """Validate a bulk-overwrite of application commands."""
    problems: list[Problem] = []
    if len(commands) > 100:
        problems.append(("_", "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
    names: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        ctype = int(cmd.get("type", 1))
        key = (ctype, cmd.get("name", ""))
        if key in names:
            problems.append(
                (
                    f"{i}.name",
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique ({key[1]})",
                )
            )
        names.add(key)
        if ctype == 1:
            problems += _check_option_like(cmd, str(i), depth=0)
    return problems


def _check_option_like(obj: dict[str, Any], path: str, depth: int) -> list[Problem]:
    problems: list[Problem] = []
    name = obj.get("name", "")
    if not COMMAND_NAME.match(name) or name != name.lower():
        problems.append(
            (f"{path}.name", "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid ({name!r})")
        )
    desc = obj.get("description", "")
    if not 1 <= len(desc) <= 100:
        problems.append(
            (f"{path}.description", "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.")
        )
    options = obj.get("options") or []
    if len(options) > 25:
        problems.append((f"{path}.options", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
    seen_optional = False
    for j, opt in enumerate(options):
        opath = f"{path}.options.{j}"
        otype = int(opt.get("type", 3))
        if otype in (1, 2):
            if depth >= (1 if otype == 2 else 2):
                problems.append(
                    (
                        f"{opath}.type",
                        "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                        "Subcommands nested too deep",
                    )
                )
            problems += _check_option_like(opt, opath, depth + 1)
            continue
        problems += _check_option_like({**opt, "options": []}, opath, depth + 1)
        if opt.get("required"):
            if seen_optional:
                problems.append(
                    (
                        f"{opath}.required",
                        "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                        "Required options must be placed before non-required options",
                    )
                )
        else:
            seen_optional = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            problems.append((f"{opath}.choices", "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length."))
        if choices and opt.get("autocomplete"):
            problems.append(
                (
                    f"{opath}.autocomplete",
                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                    "Autocomplete cannot be set with choices",
                )
            )
    return problems
