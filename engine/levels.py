"""The levels players choose for a bot seat (`LEVELS`), the same in every game: `easy` (greedy
that now and then plays any legal move), `normal` (the planning agent, the default `bot`) and
`hard` (a tree search over every player's moves, given longer and more candidates to weigh); the
two plain algorithms `greedy` and `random`; and the older names `bot`, `ai` and `strong`, which
mean `normal`. Each has its word in every language tileref speaks (`LEVEL_WORDS`): a table shows
it in its own, and a player may type it in any."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from engine.ai import Agent, EasyAgent, GreedyAgent, PlanningAgent, RandomAgent
from engine.tree_search import TreeSearchAgent

HARD_BUDGET = 3.0
"""How many times the table's planning budget the `hard` level takes."""
HARD_WIDER = 4
"""How many more candidates than `normal` the `hard` level weighs."""
LEVELS = ("easy", "normal", "hard")
"""The levels a player chooses for a bot seat, weakest first."""
ALIASES = {"bot": "normal", "ai": "normal", "strong": "normal"}
"""Older names of levels."""
AGENTS = (*LEVELS, "greedy", "random")
"""Every name `agent` knows, besides `ALIASES`: the levels and the two plain algorithms."""
LEVEL_WORDS: Mapping[str, Mapping[str, str]] = {
    "es": {"easy": "fácil", "normal": "normal", "hard": "difícil", "greedy": "voraz", "random": "al azar"},
}
"""Per language, how its players call each of `AGENTS` (English: as named there); `level_of`
reads them in every language, with or without accents."""
SPOKEN_ALIASES: Mapping[str, str] = {"azar": "random", "aleatorio": "random", "aleatoria": "random", "ia": "normal"}
"""Other words players of those languages type for an agent."""


def _plain(word: str) -> str:
    """`word` in lower case without accents and extra spaces ("Difícil " -> "dificil")."""
    decomposed = unicodedata.normalize("NFD", " ".join(word.split()).lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


_READ = {_plain(spoken): agent for words in LEVEL_WORDS.values() for agent, spoken in words.items()}
_READ |= {_plain(word): agent for word, agent in SPOKEN_ALIASES.items()}


def level_of(name: str) -> str | None:
    """The agent a name means (a level, "greedy" or "random"), in English or any language of
    `LEVEL_WORDS`, aliases, case and accents allowed ("Fácil", "facil", "easy"); None for a name
    no agent has."""
    key = _plain(name)
    key = ALIASES.get(key, _READ.get(key, key))
    return key if key in AGENTS else None


def level_name(agent: str, language: str) -> str:
    """How players of `language` call the agent `agent` (one of `AGENTS`): "fácil" for `easy`
    in Spanish; the English name where the language has no word of its own."""
    return LEVEL_WORDS.get(language, {}).get(agent, agent)


def planning_seconds(name: str, budget: float) -> float:
    """The most the agent called `name` plans a move at the table's `budget` (see `agent`)."""
    return budget * HARD_BUDGET if level_of(name) == "hard" else budget


def agent(name: str, *, budget: float | None = None, simulations: int | None = None) -> Agent:
    """The agent called `name` (see `level_of`), planning for at most `budget` seconds a move
    at `normal` (2 by default; `hard` takes HARD_BUDGET times as long and weighs HARD_WIDER more
    candidates), or exactly `simulations` simulations (`hard`: HARD_BUDGET times as many)."""
    key = level_of(name)
    if key is None:
        raise ValueError(f"there is no AI called '{name}'; choose one of {', '.join(AGENTS)}")
    if key == "easy":
        return EasyAgent()
    if key == "greedy":
        return GreedyAgent()
    if key == "random":
        return RandomAgent()
    base = 2.0 if budget is None else budget
    if key == "normal":
        return PlanningAgent(base, simulations)
    return TreeSearchAgent(base * HARD_BUDGET, None if simulations is None else round(simulations * HARD_BUDGET),
                           wider=HARD_WIDER)
