"""Checking, without running it, that a shell command written in the docs names real things:
`tileref` subcommands and flags that its `--help` lists, `python bench/X.py` scripts with the flags
their argparse declares, `python -m` modules that exist, contracts `lint-imports` knows, programs
on the PATH, and project paths that exist. Used by tests/test_docs.py."""

from __future__ import annotations

import importlib.util
import itertools
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import tomllib
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

from engine import GAMES

ROOT = Path(__file__).resolve().parent.parent

PROJECT_PATH = re.compile(r"^(?:\.ci|bench|bot|deploy|docs|engine|renderers|tests)/")
"""A token naming a file or folder of the project (relative to its root)."""

PLACEHOLDER = re.compile(r"[<>…*]|\b[A-Z]+\b")
"""A token that stands for something the reader fills in (`<game>`, `GAME`, `postgresql://…`)."""

OUTSIDE_TOOLS = {
    "docker": "runs the image; not needed by the tests",
    "pg_dump": "PostgreSQL's backup tool",
    "pg_restore": "PostgreSQL's restore tool",
    "sqlite3": "SQLite's shell",
    "apt-get": "Debian's package manager",
    ".": "the shell's own `source`",
}
"""Programs the docs may name that are not the project's and need not be installed here."""

OPERATORS = {"&&", "||", ";", "|", ">", ">>", "<"}


def commands(text: str) -> list[list[str]]:
    """The simple commands of a shell block, each as its words: continuation lines joined,
    comments dropped, split at `&&`, `||`, `;` and `|`, and what a redirection names left out."""
    found: list[list[str]] = []
    for line in text.replace("\\\n", " ").splitlines():
        words = shlex.split(line, comments=True)
        current: list[str] = []
        skip_next = False
        for word in words:
            if skip_next:
                skip_next = False
            elif word in (">", ">>", "<"):
                skip_next = True
            elif word in OPERATORS:
                if current:
                    found.append(current)
                current = []
            else:
                current.append(word)
        if current:
            found.append(current)
    return found


def loose_words(span: str) -> list[str]:
    """The words of a command written inline as a synopsis (`tileref stats [--game G]`): the
    brackets and bars of optional parts dropped."""
    return re.sub(r"[\[\]|]", " ", span).split()


def tileref_shim(folder: Path) -> Path:
    """Write `folder/tileref`, a script that runs the `tileref` command this checkout declares
    (`[project.scripts]` in pyproject.toml) with this Python, and return its path. The tests use it
    instead of an installed `tileref`, which may come from another checkout."""
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]
    module, function = scripts["tileref"].split(":")
    program = f"import sys; sys.argv[0] = 'tileref'; from {module} import {function}; sys.exit({function}())"
    folder.mkdir(parents=True, exist_ok=True)
    shim = folder / "tileref"
    shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -c {shlex.quote(program)} "$@"\n')
    shim.chmod(0o755)
    return shim


def quiet_environment(folder: Path) -> dict[str, str]:
    """The environment a reader's commands run in: this checkout's `tileref` and Python first on
    the PATH, its packages importable, the database in `folder`, no Discord token, no picture
    service, the web pages off, English."""
    bin_folder = folder / ".bin"
    tileref_shim(bin_folder)
    env = {name: value for name, value in os.environ.items()
           if not name.startswith(("TILEREF_", "DISCORD_", "KLIPY_", "GIPHY_", "LC_", "LANG"))}
    env.update(
        PATH=os.pathsep.join([str(bin_folder), str(Path(sys.executable).parent), env.get("PATH", "")]),
        PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")])),
        PYTHONDONTWRITEBYTECODE="1",
        HOME=str(folder),
        LANG="C.UTF-8",
        TILEREF_DATABASE=str(folder / "tileref-data" / "tileref.sqlite3"),
        TILEREF_WEB="off",
    )
    return env


@cache
def tileref_help() -> dict[str, str]:
    """`tileref --help` (under "") and every subcommand's `--help`, by subcommand, asked of this
    checkout's `tileref` at once."""
    with tempfile.TemporaryDirectory() as folder:
        return _ask_for_help(quiet_environment(Path(folder)))


def _ask_for_help(env: dict[str, str]) -> dict[str, str]:
    def ask(words: list[str]) -> str:
        result = subprocess.run(["tileref", *words, "--help"], env=env, capture_output=True, text=True,
                                timeout=60, check=True)
        return result.stdout

    top = ask([])
    usage = re.search(r"\{([\w,-]+)\}", top)
    assert usage, f"`tileref --help` lists no subcommands:\n{top}"
    names = usage.group(1).split(",")
    with ThreadPoolExecutor(max_workers=4) as pool:
        helps = dict(zip(names, pool.map(lambda name: ask([name]), names), strict=True))
    return {"": top, **helps}


def flags(words: list[str]) -> list[str]:
    """The long options among `words`, without their `=value`."""
    return [word.split("=")[0] for word in words if word.startswith("--") and len(word) > 2]


def check_tileref(words: list[str]) -> list[str]:
    """Problems with `tileref WORDS`: an unknown subcommand, a flag its help does not name, a
    game or choice that does not exist."""
    helps = tileref_help()
    rest = list(words)
    while rest and rest[0].startswith("-"):
        option = rest.pop(0)
        if option.split("=")[0] not in helps[""]:
            return [f"`tileref {option}`: not an option of `tileref --help`"]
        if option == "--db" and rest:
            rest.pop(0)
    if not rest:
        return []
    name, arguments = rest[0], rest[1:]
    if PLACEHOLDER.search(name):
        return []
    if name not in helps or not name:
        return [f"`tileref {name}`: not a subcommand (there are {', '.join(sorted(h for h in helps if h))})"]
    problems = [f"`tileref {name} {flag}`: `tileref {name} --help` does not name {flag}"
                for flag in flags(arguments) if not re.search(rf"{re.escape(flag)}\b", helps[name])]
    positional = next((word for word in arguments if not word.startswith("-")), None)
    if positional and not PLACEHOLDER.search(positional) and arguments and arguments[0] == positional:
        choices = re.search(r"\{([\w,-]+)\}", helps[name].split("\n\n")[0])
        if name in ("play", "rules") and positional not in GAMES:
            problems.append(f"`tileref {name} {positional}`: there is no game called {positional}")
        elif choices and positional not in choices.group(1).split(","):
            problems.append(f"`tileref {name} {positional}`: not one of {{{choices.group(1)}}}")
    return problems


def check_python(words: list[str]) -> list[str]:
    """Problems with `python WORDS`: a script that does not exist or does not declare a flag
    given to it, or a `-m` module that does not exist."""
    if not words:
        return []
    if words[0] == "-m" and len(words) > 1:
        if importlib.util.find_spec(words[1]) is None:
            return [f"`python -m {words[1]}`: there is no module {words[1]}"]
        return []
    script = ROOT / words[0]
    if not words[0].endswith(".py") or PLACEHOLDER.search(words[0]):
        return []
    if not script.is_file():
        return [f"`python {words[0]}`: there is no such script"]
    source = script.read_text(encoding="utf-8")
    return [f"`python {words[0]} {flag}`: its argparse declares no {flag}"
            for flag in flags(words[1:]) if f'"{flag}"' not in source]


def check_lint_imports(words: list[str]) -> list[str]:
    """Problems with `lint-imports WORDS`: a `--contract` id pyproject.toml does not define."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    known = {contract["id"] for contract in settings["tool"]["importlinter"]["contracts"]}
    return [f"`lint-imports --contract {value}`: pyproject.toml defines no contract {value}"
            for option, value in itertools.pairwise(words)
            if option == "--contract" and value not in known]


def check_paths(words: list[str]) -> list[str]:
    """Problems with the project paths among `words`: one that does not exist."""
    problems = []
    for word in words:
        path = word.split("::")[0].rstrip(".,;:)")
        if PROJECT_PATH.match(path) and not PLACEHOLDER.search(path) and not (ROOT / path).exists():
            problems.append(f"{path}: no such file or folder in the project")
    return problems


def check_command(words: list[str]) -> list[str]:
    """Problems with one simple command written in the docs (see the module's docstring)."""
    while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
        words = words[1:]
    if not words:
        return []
    program, arguments = words[0], words[1:]
    problems = check_paths(arguments)
    if program == "tileref":
        problems += check_tileref(arguments)
    elif program in ("python", "python3"):
        problems += check_python(arguments)
    elif program == "lint-imports":
        problems += check_lint_imports(arguments)
    if program not in OUTSIDE_TOOLS and program != "tileref" and not shutil.which(
            program, path=os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])):
        problems.append(f"`{program}`: no such program here")
    return problems
