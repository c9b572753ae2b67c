"""The contract every game implements, its errors, and the registry of games.

Actions cross this contract as canonical notation strings (the way UCI strings serve chess):
human-readable, stored in the action log, shown in history and offered by autocomplete.
A game is deterministic given its seed, options, names, starting position and action log, so
`from_json(to_json())` rebuilds it exactly, future draws included.

The contract serves every game in the family:

* several seats may be waiting at once (`to_move` returns a tuple): Tetromic's simultaneous
  draw phases, Tronimoes' "ready" between rounds;
* one seat may act several times in a row (Tronix with two players, a Tronimoes double);
* a missed deadline is whatever `timeout_actions` says, including losing the whole game
  (Tromino Go), so the referee never needs a game-specific rule;
* team games report winners as seats and may name the teams in `Outcome.teams`.
"""

from __future__ import annotations

import dataclasses
import json
import random
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from random import Random
from typing import Any, ClassVar, Protocol, Self

from engine.digits import decimal_number, foreign_digit, whole_number

RESIGN = "resign"
"""How a resignation is written in the action log (it is not an action a player types)."""

CHANCE = "chance"
"""How a fresh draw of chance is written in the action log: `chance <seed>` (seat -1), made by a
rollback so nobody who saw what came next knows the future draws."""

JOIN = "join"
"""How a player joining a running game is written in the action log: `join <name>`."""


# --------------------------------------------------------------------------------------------
# Errors: every message is written for the player who caused it.


def N_(message: str) -> str:
    """Mark a sentence for translation (catalogs are kept outside the engine); returns it as is."""
    return message


class Term(str):
    """A word among the values of an event or a refusal that a referee says in the table's
    language too (Tronix's `SW` is `SO` in Spanish). The word itself is marked with `N_` where
    the game defines it. A Term made by `phrase` is a whole clause: its `template` and `args`
    are said in the table's language the way an event's are."""

    template: str = ""
    args: Mapping[str, Any] = types.MappingProxyType({})

    def say(self, translate: Callable[[str], str]) -> str:
        """These words in the language `translate` turns marked sentences into."""
        if not self.template:
            return translate(str(self))
        return translate(self.template).format(**{k: v.say(translate) if isinstance(v, Term) else v
                                                  for k, v in self.args.items()})


class _Described(Term):
    """A game's options described (`GameOptions.describe`), said in any language."""

    options: type[GameOptions]

    def say(self, translate: Callable[[str], str]) -> str:
        return self.options.describe(translate)


def phrase(template: str, **args: Any) -> Term:
    """A clause inside a sentence (`template`, marked with `N_`, filled with `args`), which a
    referee says in the table's language with the sentence around it."""
    clause = Term(template.format(**args))
    clause.template = template
    clause.args = dict(args)
    return clause


def event(kind: str, template: str, seats: tuple[int, ...] = (), data: Mapping[str, Any] | None = None, /, *,
          to: int | None = None, **args: Any) -> Event:
    """An event told by `template` (marked with `N_`) filled with `args`: in English as `text`,
    and in the table's language by the referee."""
    return Event(kind, template.format(**args), seats, dict(data or {}), to=to, template=template, args=args)


def refuse(kind: type[GameError], template: str, /, **args: Any) -> GameError:
    """A refusal of class `kind` told by `template` (marked with `N_`) filled with `args`."""
    return kind(template.format(**args), template=template, args=args)


def refused(kind: type[GameError], clause: str) -> GameError:
    """A refusal of class `kind` saying `clause` (a `phrase`, said in the table's language, or a
    plain sentence)."""
    if isinstance(clause, Term) and clause.template:
        return kind(str(clause), template=clause.template, args=clause.args)
    return kind(str(clause))


def join_names(names: list[str]) -> str:
    """`a`, `a and b`, `a, b and c`, said in the table's language."""
    if len(names) <= 1:
        return "".join(names)
    return phrase(N_("{names} and {last}"), names=", ".join(names[:-1]), last=names[-1])


def any_of(items: list[str]) -> str:
    """`a`, `a or b`, `a, b or c`, said in the table's language."""
    if len(items) <= 1:
        return "".join(items)
    return phrase(N_("{a} or {b}"), a=", ".join(items[:-1]), b=items[-1])


def NP_(singular: str, plural: str) -> tuple[str, str]:
    """Mark the two forms of a counted message ("{count} card", "{count} cards") as one plural
    entry of the catalogs: the referee says it with `ngettext`, so each language picks the form
    its grammar wants for the number. Returns the pair as it is."""
    return singular, plural


@dataclass(frozen=True)
class PieceNoun:
    """What a game calls the things its players hold and lay, for the sentences the referee says
    about any game (the web page's hand counts, the line saying a rollback shuffled what nobody
    had seen): Tronimoes' and Triominoes' tiles, Tronix's cards, Tetromic's pieces, Tromino Go's
    trominoes. `counted` is a number of them, marked with `NP_`; `unseen`, marked with `N_`, names
    those no seat has seen ("the unseen cards"), each language with its own article."""

    counted: tuple[str, str]
    unseen: str


class GameError(Exception):
    """A refusal a player can act on. `str(error)` is the message to show them; a game that says
    it in several languages also gives the `template` (marked with `N_`) and its values."""

    def __init__(self, message: str, *, template: str = "", args: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.template = template
        self.values = dict(args or {})


QUOTE_LIMIT = 60
"""At most this many characters of what a user typed are quoted back in a message."""


def quoted(text: str, limit: int = QUOTE_LIMIT) -> str:
    """User input shortened for quoting back: spaces collapsed, at most `limit` characters,
    marked with "…" when cut."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class NotationError(GameError):
    """The text could not be read as an action: it is not written in the game's notation (a word
    out of place, a part missing or one too many, a number not written with the digits 0–9); the
    message shows what was expected. Typed chat that raises this is taken as conversation and
    left unanswered, so a move written in the notation must never raise it (see IllegalMove)."""


class IllegalMove(GameError):
    """The action was understood but is not allowed now; the message says why. That includes a
    move written in the game's notation whose parts name what the game does not have or cannot
    do: a tile outside the set, a square off the board, squares or cells that make no tile or
    piece, a line nobody has, a number out of range. Such a move is answered wherever it was
    typed, the same way as by command."""


class AmbiguousMove(GameError):
    """Several legal actions fit the text; `candidates` lists them in canonical form."""

    def __init__(self, message: str, candidates: list[str], *, template: str = "",
                 args: Mapping[str, Any] | None = None) -> None:
        super().__init__(message, template=template, args=args)
        self.candidates = candidates


class NotYourTurn(GameError):
    """The seat is not one the game is waiting for."""


class OptionError(GameError):
    """A game option was unknown or its value could not be read."""


def check_digits(text: str, example: str) -> None:
    """Raise NotationError if `text` writes a number with anything but the digits 0–9 ('²', '٣',
    the full-width '３'; see `engine.digits`), saying to write it with 0–9, like `example` (how
    the game's moves are written: a `Term`, said in the table's language)."""
    digit = foreign_digit(text)
    if digit is not None:
        raise refuse(NotationError, N_("write numbers with the digits 0 to 9, not '{digit}': like {example}"),
                     digit=digit, example=example)


class PositionError(GameError):
    """A position given to `from_position` is malformed or breaks the game's rules."""


# --------------------------------------------------------------------------------------------
# What happened, and how a game ended.


@dataclass(frozen=True)
class Event:
    """Something that happened, told in one sentence, with data a transport can use.

    `seats` are the seats the event is about. `to` is None for a public event; otherwise only
    that seat may be told (a drawn tile, for instance). Two `data` keys mean something to the
    referee in every game: `reaction` (words to search a reaction picture with, for servers that
    post reactions to events: "skull" for a kill) and `picture` (the first seat in `seats` may now
    choose a picture of that kind for the rest of the game: "foot", the chicken-foot of the
    vision quest).
    """

    kind: str
    text: str
    seats: tuple[int, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict)
    to: int | None = None
    template: str = ""
    """The sentence before its values were put in (`"{player} turns {cell}."`), marked with `N_`,
    so a referee can say it in the table's language; `args` are the values. Empty: `text` only."""
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "seats": list(self.seats),
                "data": dict(self.data), "to": self.to}


@dataclass(frozen=True)
class Outcome:
    """The final result: a score per seat, the winning seats (several on a tie or a team win)."""

    scores: tuple[float, ...]
    winners: tuple[int, ...]
    reason: str
    teams: tuple[tuple[int, ...], ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "winners": list(self.winners), "reason": self.reason,
                "teams": [list(team) for team in self.teams]}

    @classmethod
    def from_position(cls, value: Any, players: int) -> Outcome | None:
        """The `result` of a position (None while playing, else what `to_json` writes). Raises
        PositionError when it is not shaped like one; whether the game's state gives this
        result is for `check_result` to say."""
        if value is None:
            return None
        try:
            scores = tuple(float(s) for s in value["scores"])
            winners = tuple(int(w) for w in value["winners"])
            teams = tuple(tuple(int(s) for s in team) for team in value.get("teams", []))
            reason = value["reason"]
        except (KeyError, TypeError, ValueError, AttributeError):
            raise PositionError('"result" is null while the game is played, else {"scores": [one per seat], '
                                '"winners": [seats], "reason": "why it ended", "teams": [[seats], ...]}') from None
        if len(scores) != players or not all(0 <= w < players for w in winners) or not isinstance(reason, str):
            raise PositionError(f'"result" needs a score for each of the {players} seats, winners among them, '
                                f'and the reason as text')
        return cls(scores, winners, reason, teams)


def check_result(game: GameShape, result: Outcome | None) -> None:
    """Raise PositionError unless `game`, just set up from a position, has the `result` that
    position states (its `outcome()` exactly, or None while it is played)."""
    actual = game.outcome()
    if actual == result:
        return
    if result is None:
        assert actual is not None
        raise PositionError(f"the result is null, but this position is over: {actual.reason}")
    if actual is None:
        raise PositionError(f"the result says the game is over ({result.reason}), but this position is still "
                            f"being played")
    def named(seats: tuple[int, ...]) -> str:
        return ", ".join(game.names[s] for s in seats) or "nobody"
    if actual.winners != result.winners:
        raise PositionError(f"the result names {named(result.winners)} as winner, but this position gives "
                            f"{named(actual.winners)} ({actual.reason})")
    if actual.scores != result.scores:
        raise PositionError(f"the result's scores {list(result.scores)} are not the position's "
                            f"{list(actual.scores)}")
    raise PositionError(f"the result says {result.reason!r} and names teams {[list(t) for t in result.teams]}, "
                        f"but this position gives {actual.reason!r} and {[list(t) for t in actual.teams]}")


# --------------------------------------------------------------------------------------------
# Options: a frozen dataclass per game; every field has a default.


@dataclass(frozen=True)
class GameOptions:
    """Base for each game's options. Fields may carry `metadata={"help": ..., "choices": ...}`."""

    @classmethod
    def parse(cls, values: Mapping[str, str]) -> Self:
        """Read options typed as text (`{"ouroboros": "off"}`); unknown keys and bad values raise
        OptionError naming the options that exist."""
        known = {f.name: f for f in dataclasses.fields(cls)}
        hints = typing.get_type_hints(cls)
        parsed: dict[str, Any] = {}
        for raw_key, raw_value in values.items():
            key = raw_key.strip().lower().replace("-", "_")
            if key not in known:
                raise refuse(OptionError, N_("unknown option '{key}'. {options}"), key=quoted(raw_key),
                             options=cls.describe_term())
            parsed[key] = _read_option_value(key, str(raw_value), hints[key], known[key])
        return cls(**parsed)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        known = {f.name for f in dataclasses.fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_position(cls, values: Any) -> Self:
        """The options a position records (`{"max_moving_turns": 60}`, JSON values; missing ones
        take their defaults). Raises PositionError naming an unknown option or a wrong value."""
        if not isinstance(values, Mapping):
            raise PositionError('"options" is a JSON object like {"name": value}')
        known = {f.name: f for f in dataclasses.fields(cls)}
        hints = typing.get_type_hints(cls)
        for key, value in values.items():
            spec = known.get(key)
            if spec is None:
                raise PositionError(f"unknown option '{key}' in the position. {cls.describe()}")
            kind = hints[key]
            low, high = spec.metadata.get("min"), spec.metadata.get("max")
            if kind is bool:
                fits = isinstance(value, bool)
            elif kind in (int, float):
                fits = (isinstance(value, int | float) and not isinstance(value, bool)
                        and (kind is float or isinstance(value, int))
                        and (low is None or value >= low) and (high is None or value <= high))
            else:
                fits = isinstance(value, str) and value in spec.metadata.get("choices", (value,))
            if not fits:
                raise PositionError(f"option {key} cannot be {json.dumps(value)}. {cls.describe()}")
        return cls(**values)

    def differences(self) -> dict[str, Any]:
        """The options that differ from the defaults, for a short summary."""
        default = type(self)()
        return {k: v for k, v in self.to_json().items() if getattr(default, k) != v}

    @classmethod
    def describe(cls, say: Callable[[str], str] = str) -> str:
        """Every option: `name=value|value (default x): help`, in the language `say` translates
        marked sentences into (by default as written)."""
        if not dataclasses.fields(cls):
            return say(N_("This game has no options."))
        hints = typing.get_type_hints(cls)
        parts = []
        for f in dataclasses.fields(cls):
            kind = hints[f.name]
            if kind is bool:
                values = "on|off"
                default = "on" if f.default else "off"
            elif f.metadata.get("choices"):
                values = "|".join(f.metadata["choices"])
                default = str(f.default)
            else:
                values = {int: N_("number"), float: N_("number"), str: N_("text")}.get(kind, str(kind))
                values = say(values)
                default = str(f.default)
            help_text = f.metadata.get("help", "")
            template = (N_("`{name}={values}` (default `{default}`): {help}") if help_text
                        else N_("`{name}={values}` (default `{default}`)"))
            parts.append(say(template).format(name=f.name, values=values, default=default,
                                              help=say(help_text) if help_text else ""))
        return say(N_("Options: {options}")).format(options="; ".join(parts))

    @classmethod
    def describe_term(cls) -> Term:
        """`describe`, as a value of a refusal that the referee says in the table's language."""
        described = _Described(cls.describe())
        described.options = cls
        return described


_TRUE = {"on", "yes", "true", "1", "y"}
_FALSE = {"off", "no", "false", "0", "n"}


def _read_option_value(key: str, text: str, kind: Any, spec: dataclasses.Field[Any]) -> Any:
    value = text.strip().lower()
    if kind is bool:
        if value in _TRUE:
            return True
        if value in _FALSE:
            return False
        raise refuse(OptionError, N_("option {key} takes on or off, not '{text}'"), key=key, text=quoted(text))
    if kind in (int, float) and foreign_digit(value) is not None:
        raise refuse(OptionError, N_("option {key} takes a number written with the digits 0 to 9, not '{text}'"),
                     key=key, text=quoted(text))
    if kind in (int, float):
        number = whole_number(value) if kind is int else decimal_number(value)
        if number is None:
            raise refuse(OptionError, N_("option {key} takes a whole number, not '{text}'") if kind is int else
                         N_("option {key} takes a number, not '{text}'"), key=key, text=quoted(text))
        low, high = spec.metadata.get("min"), spec.metadata.get("max")
        if (low is not None and number < low) or (high is not None and number > high):
            raise refuse(OptionError, N_("option {key} must be between {low} and {high}, not {number}"), key=key,
                         low=low, high=high, number=quoted(value))
        return number
    choices = spec.metadata.get("choices")
    if choices and value not in choices:
        raise refuse(OptionError, N_("option {key} takes one of {choices}, not '{text}'"), key=key,
                     choices=", ".join(choices), text=quoted(text))
    if kind is str or isinstance(kind, types.UnionType) or choices:
        return value
    raise TypeError(f"option {key} has a type the parser does not know: {kind!r}")


class GameShape(Protocol):
    """The part of the `Game` contract a game's own helper modules (positions, refusals, rules)
    may rely on without importing the game's class: its seat limits and constructor, the
    seats' names, its options and its outcome. Each helper extends it with the state it reads,
    so the game module imports its helpers and never the other way round."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    players: int
    names: list[str]

    def __init__(self, players: int, seed: int, options: GameOptions, names: list[str]) -> None: ...

    @property
    def options(self) -> GameOptions: ...

    def outcome(self) -> Outcome | None: ...


# --------------------------------------------------------------------------------------------
# The contract.


class Game(ABC):
    """One game instance. Subclasses implement the rules; this base keeps the action log and
    rebuilds games from it, so every game serializes the same way.

    Seats are numbered from 0. Actions are canonical strings; `parse` turns free text into one.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[GameOptions]]
    summary: ClassVar[str] = ""
    """A few paragraphs of rules for players, shown by `/rules`."""
    notation_help: ClassVar[str] = ""
    """How to type actions, with examples."""
    position_help: ClassVar[str] = ""
    """The position format of `to_position`/`from_position`: every field, and an example position
    in a ```json block (`tileref rules <game> --positions` prints it)."""
    verbs: ClassVar[frozenset[str]] = frozenset()
    """Every word of the game's notation, in every language it accepts ("draw", "pass", …):
    typed chat is taken as a move only when all its words are verbs, player names or words of
    the seat's legal actions; anything else is conversation."""
    command_moves: ClassVar[Mapping[str, str]] = {}
    """What the common commands `draw`, `pass` and `skip` (Discord's /draw, /pass, /skip) play in
    this game, by command: the text of the game's own move (`{"draw": "draw"}`)."""
    command_help: ClassVar[Mapping[str, str]] = {}
    """For a common command the game has no move for, the game's own way of doing that or why it
    has none, marked with `N_` ("Tromino Go has no drawing: …")."""
    example_moves: ClassVar[tuple[str, ...]] = ()
    """A move or two as players type them, to show how moving is written (`3:5 c4 d4`); the
    first is the usual one (see `example_move`)."""
    notation_words: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    """Per language, the words of the canonical notation as players of that language type them
    (`{"es": {"draw": "robar"}}`); `parse` reads both. Autocomplete and `rules` show them."""
    action_separator: ClassVar[str | None] = None
    """If set (Tetromic: ";"), a player may send several actions at once joined by it; the
    referee applies them in order and stops at the first the rules refuse."""
    default_turn_seconds: ClassVar[int | None] = None
    """The turn time a new table of this game gets unless its creator or the server sets one
    (Tromino Go's 72 hours); None: the referee's general default."""
    piece_noun: ClassVar[PieceNoun]
    """What the game calls its pieces (`PieceNoun`): tiles, cards, pieces, trominoes. Every game
    names its own, so no sentence about any game says "tiles" of a card game."""
    chosen_pictures: ClassVar[frozenset[str]] = frozenset()
    """The pictures a player may choose to have drawn on the board, by kind (Tronimoes: "foot",
    the chicken-foot at the end of a footed player's line, chosen on a vision quest); the
    transports offer the choice only in games that draw it."""

    def __init__(self, players: int, seed: int, options: GameOptions, names: list[str]) -> None:
        if players not in self.player_counts():
            raise ValueError(f"{self.title} takes {', '.join(map(str, self.player_counts()))} players, not {players}")
        if len(names) != players:
            raise ValueError(f"{players} players need {players} names, got {len(names)}")
        self.players = players
        self.seed = seed
        self.options = options
        self.names = list(names)
        self.log: list[tuple[int, str]] = []
        self.joined = 0
        """Seats added by `join` after the game began (they are the last seats)."""
        self.start_position: dict[str, Any] | None = None
        self.opening: list[Event] = []

    # ---- construction ------------------------------------------------------------------

    @classmethod
    def new(cls, players: int, *, seed: int, options: GameOptions | None = None,
            names: list[str] | None = None) -> Self:
        """A fresh game for `players` seats, all chance drawn from `seed`."""
        names = list(names) if names is not None else [f"P{i + 1}" for i in range(players)]
        game = cls(players, seed, options if options is not None else cls.Options(), names)
        game.opening = game.setup()
        return game

    @abstractmethod
    def setup(self) -> list[Event]:
        """Deal and prepare the first move of a new game (called once by `new`); returns what
        happened (who leads, who moves first), kept in `opening`."""

    def random(self, purpose: str) -> random.Random:
        """A generator for one named use of chance, fixed by the game's seed."""
        return random.Random(f"{self.name}:{self.seed}:{purpose}")

    # ---- reading -----------------------------------------------------------------------

    @abstractmethod
    def to_move(self) -> tuple[int, ...]:
        """Seats the game is waiting for (the clock runs for them); () when the game is over."""

    team_names: ClassVar[tuple[str, ...]] = ()
    """Names of the teams `teams` returns, in order and marked with `N_` (Tronix: green, pink);
    empty: the lobby letters them."""

    @classmethod
    def player_counts(cls) -> tuple[int, ...]:
        """How many players may sit down (Tronix: an even number); by default any number from
        `min_players` to `max_players`."""
        return tuple(range(cls.min_players, cls.max_players + 1))

    @classmethod
    def teams(cls, players: int) -> tuple[tuple[int, ...], ...]:
        """The seats of each team when `players` sit down (Tronix: two teams), or () for a game
        without teams. The lobby shows them."""
        return ()

    def rank_suggestions(self, seat: int, actions: list[str]) -> list[str]:
        """`actions` (legal for `seat`) in the order a player would most like to see them offered
        (Tetromic: most rows cleared first). By default as they are."""
        return actions

    def example_move(self) -> str:
        """How a move is written now, as an example that gives nothing away (not a legal move
        from anyone's hand): by default the first of `example_moves`."""
        return self.example_moves[0] if self.example_moves else ""

    @classmethod
    def spoken(cls, action: str, language: str) -> str:
        """A canonical `action` written with the words of `language` (`notation_words`), the way a
        player at a table speaking it would type it; `parse` reads it back to `action`."""
        words = cls.notation_words.get(language)
        if not words:
            return action
        return " ".join(words.get(word, word) for word in action.split(" "))

    @classmethod
    def canonical(cls, typed: str, language: str) -> str:
        """What a player of `language` typed, with the notation's words of that language put back
        in the canonical ones (the reverse of `spoken`), for matching against legal actions."""
        words = cls.notation_words.get(language)
        if not words:
            return typed
        back = {spoken.lower(): word for word, spoken in words.items()}
        return " ".join(back.get(word.lower(), word) for word in typed.split(" "))

    def held_as(self, piece: str) -> tuple[str, ...]:
        """The names a piece of a hand (as `view(seat)["hand"]` names it) is played by, when they
        are not the piece's own (Tetromic: an `L` is placed as `L0` … `J270`); () by default."""
        return ()

    def describe_action(self, seat: int, action: str) -> str:
        """How hints and autocomplete show the legal `action` to `seat`: by default the action
        itself. A game may show more (Triominoes: the tile as it is in the hand, then turned as
        the placement needs); whatever it shows still parses as `action`."""
        return action

    def suggestion_match(self, action: str, typed: str) -> int | None:
        """How well the legal `action` matches what a player has typed so far, for autocomplete:
        0 when it starts with it, 1 when it contains it, None when it does not match. Games
        whose players may write an action several ways (Triominoes: a tile's numbers in any
        order, a spot's number instead of a cell) widen this."""
        wanted = " ".join(typed.lower().split())
        if action.startswith(wanted):
            return 0
        return 1 if wanted in action else None

    def deadline(self, since: float, turn_seconds: int) -> float:
        """When a turn that began at `since` (seconds since the epoch) ends, for a table whose
        turn time is `turn_seconds`. By default `turn_seconds` later; a game with fixed windows
        (Tetromic's calendar phases) ends it at the end of the window."""
        return since + turn_seconds

    @classmethod
    def default_turn_seconds_for(cls, options: GameOptions) -> int | None:
        """The turn time a new table with `options` gets unless its creator or the server sets
        one (by default `default_turn_seconds`; a preset may choose another)."""
        return cls.default_turn_seconds

    def turn_count(self) -> int:
        """A number that grows whenever a new turn begins (the same seat's next turn included,
        and each new round) and stays the same within a turn (a draw before laying). The referee
        gives every new turn a fresh deadline. By default every action begins a new turn."""
        return len(self.log)

    @abstractmethod
    def legal_actions(self, seat: int) -> list[str]:
        """Every legal canonical action for `seat` now, in a stable order."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """None while the game is being played."""

    @abstractmethod
    def scores(self) -> tuple[float, ...]:
        """The running score of every seat."""

    @abstractmethod
    def view(self, seat: int | None) -> dict[str, Any]:
        """JSON-safe picture of the game as `seat` sees it (None: a spectator). It never holds a
        secret that seat could not see at a real table: other hands, the order of the bag."""

    # ---- acting ------------------------------------------------------------------------

    @abstractmethod
    def parse(self, seat: int, text: str) -> str:
        """Free text -> the canonical action it means for `seat`. Raises NotationError,
        AmbiguousMove, IllegalMove or NotYourTurn with a message the player can act on."""

    def apply(self, seat: int, action: str) -> list[Event]:
        """Play `action` (any text `parse` accepts) for `seat`. Either the whole action happens
        and the canonical action is logged, or a GameError is raised and nothing changes."""
        self._check_seat(seat)
        canonical = self.parse(seat, action)
        events = self._execute(seat, canonical)
        self.log.append((seat, canonical))
        return events

    def apply_listed(self, seat: int, action: str) -> list[Event]:
        """Play `action`, which must be one of `legal_actions(seat)` exactly as listed there,
        without reading or checking it again (for simulations, which make thousands of moves
        they took from that list; anything else must go through `apply`)."""
        events = self._execute(seat, action)
        self.log.append((seat, action))
        return events

    @abstractmethod
    def _execute(self, seat: int, action: str) -> list[Event]:
        """Carry out an action `parse` returned; must not fail."""

    @classmethod
    def keeps_unseen_pieces(cls) -> bool:
        """Whether the game keeps pieces that no seat has seen (a bag, a well, a queue), which a
        rollback deals again (`reshuffle`); False where everything is dealt or on the board."""
        return cls._reshuffle is not Game._reshuffle

    def between_rounds(self) -> bool:
        """True while the game waits for the players to say they are ready for the next round
        (Tronimoes' `ready`), and nothing else can be played."""
        return False

    def forced_action(self, seat: int) -> str | None:
        """The action the rules make for `seat` without asking (Tromino Go's pass when nothing
        else is legal), or None when the player must choose. The referee applies it at once and
        announces it; no clock runs for it. Only ever a draw or a pass, and only one that the rules
        allow solely when nothing else is legal, so that the move says no more, made for the player,
        than the player's own would: a tile laid this way, even the only one that fits, would tell
        the table that none of the player's others does, and so would a draw the rules let a player
        choose with a tile that fits (Triominoes' voluntary draws)."""
        return None

    @abstractmethod
    def timeout_actions(self, seat: int) -> list[str]:
        """The actions, in order, that a missed deadline or a moderator's forced pass applies
        for `seat`; each is legal once the ones before it are applied. [] if none apply."""

    def resign(self, seat: int) -> list[Event]:
        """`seat` leaves the game for good; the game goes on without it, or ends."""
        self._check_seat(seat)
        if self.outcome() is not None:
            raise refuse(IllegalMove, N_("the game is already over"))
        events = self._resign(seat)
        self.log.append((seat, RESIGN))
        return events

    @abstractmethod
    def _resign(self, seat: int) -> list[Event]:
        """Carry out a resignation; must not fail for a seat still in the game."""

    @abstractmethod
    def is_resigned(self, seat: int) -> bool:
        """Whether `seat` has left the game (resigned, forfeited, was removed): not a seat merely
        out of moves, which finishes with its score. The ratings place every seat that left
        last."""

    def reshuffle(self, seed: int) -> None:
        """Deal again, from `seed`, everything no seat has seen (the bag, the well, a deck, the
        future rounds); logged as a chance entry so replays do the same."""
        self._reshuffle(random.Random(f"{self.name}:{seed}:reshuffle"))
        self.log.append((-1, f"{CHANCE} {seed}"))

    def _reshuffle(self, rng: Random) -> None:  # noqa: B027 (a hook: no hidden piles by default)
        """Reorder every hidden pile with `rng`. Games with hidden chance override this."""

    allows_join: ClassVar[bool] = False
    """Whether new players may take a seat in a running game (see `join`)."""

    def join(self, name: str) -> list[Event]:
        """Seat a new player called `name` in the running game, as the last seat. Raises
        IllegalMove, with the reason, when the game or its options do not allow it."""
        if self.outcome() is not None:
            raise refuse(IllegalMove, N_("the game is already over"))
        if not self.allows_join:
            raise refuse(IllegalMove, N_("{game} does not let new players join a game in progress"), game=self.title)
        if self.players >= self.max_players:
            raise refuse(IllegalMove, N_("{game} seats at most {count} players"), game=self.title,
                         count=self.max_players)
        events = self._join(name)
        self.players += 1
        self.joined += 1
        self.names.append(name)
        self.log.append((self.players - 1, f"{JOIN} {name}"))
        return events

    def _join(self, name: str) -> list[Event]:
        """Prepare the state for one more seat (it becomes seat `self.players`); may raise
        IllegalMove (an option forbids joining now). Games with `allows_join` override this."""
        raise refuse(IllegalMove, N_("{game} does not let new players join a game in progress"), game=self.title)

    # ---- persistence -------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole game: what `from_json` needs to rebuild it exactly."""
        return {
            "game": self.name,
            "version": 1,
            "players": self.players - self.joined,
            "seed": self.seed,
            "options": self.options.to_json(),
            "names": list(self.names[:self.players - self.joined]),
            "start": self.start_position,
            "log": [[seat, action] for seat, action in self.log],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        """Rebuild a game by replaying its log from its seed or starting position."""
        if data.get("game") != cls.name:
            raise ValueError(f"this is a {data.get('game')!r} game, not {cls.name!r}")
        if data.get("start") is not None:
            game = cls.from_position(data["start"], seed=data["seed"],
                                     options=cls.Options.from_json(data.get("options", {})))
        else:
            game = cls.new(data["players"], seed=data["seed"],
                           options=cls.Options.from_json(data.get("options", {})),
                           names=list(data["names"]))
        game.replay(data.get("log", []))
        return game

    def replay(self, log: list[Any]) -> None:
        """Apply logged actions in order (as written by `to_json`)."""
        for seat, action in log:
            self.replay_one(seat, action)

    def replay_one(self, seat: int, action: str) -> list[Event]:
        """Apply one logged entry (a move, a resignation, a join or a chance entry) and return
        its events (none for a chance entry)."""
        if seat == -1 and action.startswith(CHANCE + " "):
            self.reshuffle(int(action[len(CHANCE) + 1:]))
            return []
        if action == RESIGN:
            return self.resign(seat)
        if action.startswith(JOIN + " ") and seat == self.players:
            return self.join(action[len(JOIN) + 1:])
        return self.apply(seat, action)

    @abstractmethod
    def to_position(self) -> dict[str, Any]:
        """This moment of the game, in the format the game's rules file documents."""

    @classmethod
    def from_position(cls, data: Mapping[str, Any], *, seed: int = 0,
                      options: GameOptions | None = None) -> Self:
        """A game set up at any position (puzzles, bug reports, tests). Chance after it comes
        from `seed`. Its options are `options`, or else those the position records
        (`Options.from_position`). The game reads the rest (`_read_position`), and the position
        it starts from is kept, as `to_position` writes it, for `to_json`. Raises GameError when
        the position breaks the game's rules."""
        chosen = options if options is not None else cls.Options.from_position(data.get("options", {}))
        game = cls._read_position(data, seed=seed, options=chosen)
        game.start_position = game.to_position()
        return game

    @classmethod
    @abstractmethod
    def _read_position(cls, data: Mapping[str, Any], *, seed: int, options: GameOptions) -> Self:
        """The game's own part of `from_position`: a game with `seed` and `options` (already
        read) set to the position `data`, every fact the game derives from it in place. Raises
        PositionError when the position is malformed or breaks the game's rules."""

    def clone(self) -> Self:
        """An independent copy that behaves identically. This default replays the whole log;
        games override it with a structural copy (AI agents copy games thousands of times),
        starting from `_shallow_copy`."""
        return type(self).from_json(self.to_json())

    def _shallow_copy(self) -> Self:
        """A new game of this class that shares every attribute with this one except its action
        log and its seats' names, which are its own copies: what a structural `clone` starts from,
        before it copies the rest of the state that playing changes."""
        copy = object.__new__(type(self))
        copy.__dict__.update(self.__dict__)
        copy.log = list(self.log)
        copy.names = list(self.names)
        return copy

    def determinize(self, seat: int, rng: Random) -> Self:
        """A copy in which everything `seat` cannot see (other hands, the bag, the well, the
        deck, future deals) is dealt again with `rng`, consistently with what `seat` has seen
        (the same hand sizes, the same public board). What an AI planning for `seat` may look
        at instead of the real game. Games with hidden information override this; the default
        is a plain copy."""
        return self.clone()

    # ---- helpers for subclasses --------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.players:
            raise ValueError(f"seat {seat!r} is not in this {self.players}-player game")


def copied_random(rng: Random) -> Random:
    """A new generator in the state `rng` is in now: it draws what `rng` would draw next, and
    drawing from either leaves the other as it was (for a game's `clone`)."""
    copy = type(rng)()
    copy.setstate(rng.getstate())
    return copy


GAMES: dict[str, type[Game]] = {}
"""Every registered game, by name."""


def register(cls: type[Game]) -> type[Game]:
    """Class decorator: make a game available as `engine.GAMES[cls.name]`."""
    if cls.name in GAMES and GAMES[cls.name] is not cls:
        raise ValueError(f"two games are called {cls.name!r}")
    GAMES[cls.name] = cls
    return cls
