"""The README and docs/ say true things (docs/architecture.md, "These documents", says how).

Every shell block marked `<!-- runnable ... -->` runs as written, in order, in a temporary folder
that holds the project's files, and must exit as the mark says (0 unless it lists others) with
the output it expects; every other shell block, and every command and project path written
inline, names real things; every relative link leads to a file and heading that exist.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests import doc_commands, markdown
from tests.doc_commands import ROOT

DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL = {"sh", "bash", "shell", "console"}
COMMAND_SPAN = re.compile(r"^(?:tileref|python3?|lint-imports|pytest)\s")
PROJECT_ENTRIES = ("bench", "bot", "deploy", "docs", "engine", "renderers", "tests", "pyproject.toml", "README.md")
"""What a reader's folder holds of the project (linked, never copied), so `python bench/X.py`
and `deploy/...` work there as they do from the project's root."""

BLOCK_SECONDS = 120


def read(path: Path) -> markdown.Document:
    return markdown.read(path)


def ids(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", DOCUMENTS, ids=ids)
def test_every_fence_says_its_language_and_every_runnable_mark_leads_to_a_shell_block(path: Path) -> None:
    document = read(path)
    unlabelled = [block.where for block in document.blocks if not block.language]
    assert not unlabelled, f"fenced blocks without a language (sh, text, ini, ...): {unlabelled}"
    assert not document.stray_markers, \
        f"{path.name}: runnable marks not right before a fenced block, lines {document.stray_markers}"
    not_shell = [block.where for block in document.blocks if block.runnable is not None
                 and block.language not in SHELL]
    assert not not_shell, f"runnable marks on blocks that are not shell: {not_shell}"


RUNNABLE = [path for path in DOCUMENTS if any(block.runnable is not None for block in read(path).blocks)]


@pytest.mark.parametrize("path", RUNNABLE, ids=ids)
def test_runnable_blocks_run_as_written(path: Path, tmp_path: Path) -> None:
    """The document's runnable blocks, in order, in one folder, as a reader would type them."""
    for entry in PROJECT_ENTRIES:
        (tmp_path / entry).symlink_to(ROOT / entry)
    env = doc_commands.quiet_environment(tmp_path)
    for block in read(path).blocks:
        if block.runnable is None:
            continue
        marks = block.runnable
        typed = "".join(text.replace("\\n", "\n") + "\n" for text in marks.get("stdin", []))
        allowed = {int(status) for text in marks.get("exit", ["0"]) for status in text.split()}
        result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", block.text], cwd=tmp_path, env=env,
                                input=typed, capture_output=True, text=True, timeout=BLOCK_SECONDS)
        output = result.stdout + result.stderr
        said = f"{block.where}:\n{block.text}--- exit {result.returncode}, output (end):\n{output[-3000:]}"
        assert result.returncode in allowed, said
        for expected in marks.get("expect", []):
            assert expected in output, f"expected {expected!r} in the output of {said}"


@pytest.mark.parametrize("path", DOCUMENTS, ids=ids)
def test_shell_blocks_name_real_commands_flags_and_paths(path: Path) -> None:
    problems = [f"{block.where}: {problem}"
                for block in read(path).blocks if block.language in SHELL
                for words in doc_commands.commands(block.text)
                for problem in doc_commands.check_command(words)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", DOCUMENTS, ids=ids)
def test_commands_and_paths_written_inline_exist(path: Path) -> None:
    document = read(path)
    problems = []
    for number, span in markdown.inline_code(document):
        where = f"{path.name}:{number}: `{span}`"
        if COMMAND_SPAN.match(span):
            words = doc_commands.loose_words(span)
            problems += [f"{where}: {problem}" for problem in doc_commands.check_command(words)]
        else:
            problems += [f"{where}: {problem}" for problem in doc_commands.check_paths([span])]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("path", DOCUMENTS, ids=ids)
def test_relative_links_lead_to_files_and_headings_that_exist(path: Path) -> None:
    document = read(path)
    problems = []
    for number, target in markdown.links(document):
        if re.match(r"^[a-z]+:", target):
            continue
        file_part, _, anchor = target.partition("#")
        linked = (path.parent / file_part).resolve() if file_part else path
        if not linked.exists():
            problems.append(f"{path.name}:{number}: {target}: no such file")
        elif anchor and linked.suffix == ".md" and anchor not in markdown.anchors(read(linked)):
            problems.append(f"{path.name}:{number}: {target}: {linked.name} has no heading #{anchor}")
    assert not problems, "\n".join(problems)


def test_the_readme_keeps_its_two_commands_and_ci_runs_the_test_one() -> None:
    """The two commands are the project's contract: run the bot, run the tests (.ci/run runs the
    second as written)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Two commands", 1)[1].split("\n## ", 1)[0]
    blocks = [block.strip() for block in re.findall(r"```sh\n(.*?)```", section, re.S)]
    assert blocks == [
        'python3 -m venv .venv && . .venv/bin/activate && pip install . && tileref run',
        'python3 -m venv .venv && . .venv/bin/activate && pip install -e ".[test]" && pytest',
    ]
    assert blocks[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_invite_links_permissions_are_the_ones_the_discord_stand_in_grants() -> None:
    """The invite link's permission numbers (README and docs/hosting.md) are the bot's managed
    role in the Discord stand-in the end-to-end tests run against, without and with Manage Threads."""
    import discord

    from tests.standin.model import DEFAULT_BOT_PERMISSIONS

    with_threads = DEFAULT_BOT_PERMISSIONS | discord.Permissions(manage_threads=True).value
    for path in (ROOT / "README.md", ROOT / "docs" / "hosting.md"):
        numbers = {int(n) for n in re.findall(r"permissions=(\d+)", path.read_text(encoding="utf-8"))}
        assert numbers == {DEFAULT_BOT_PERMISSIONS}, path.name
    hosting = (ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    assert f"with it, use `{with_threads}`" in hosting
