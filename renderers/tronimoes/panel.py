"""Tronimoes text panels: the header above the board, and the hand image.

The header says which round it is and which double leads it, how many tiles are left in the bag,
whose turn it is (or who still has to type `ready`, or who won), one card per seat with its
number and colour, name, score, hand size and state, and what the last move was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PIL import Image, ImageDraw

from renderers.common import DEAD, HIGHLIGHT, INK, MUTED, N_, PAPER, RGB, say, seat_colour
from renderers.dominoes import paste_tile
from renderers.glyphs import badge, framed_picture
from renderers.text import draw_text, drawable, fit_name, fit_text, text_width, wrap_text
from renderers.tronimoes.style import DIM_FRAME, DIM_STYLE, GONE_CARD, card_tint, playable_style

View = Mapping[str, Any]

TITLE = 34
TEXT = 27
PAD = 16
CARD_GAP = 10
CARD_HEIGHT = 2 * TEXT + 3 * 12
CARD_MIN_WIDTH = 330
LINE = TEXT + 14
TURN_BADGE = TITLE + 6
SMALL = 20


NAME_ROOM = 440
"""The most pixels a name takes in a sentence; longer names are shortened with an ellipsis."""


def seat_name(view: View, seat: int, size: int = TEXT, *, bold: bool = False) -> str:
    """A seat's name as the font can draw it, shortened to fit a sentence at `size`."""
    return fit_text(drawable(str(view["seats"][seat]["name"]), f"P{seat + 1}"), size, NAME_ROOM, bold=bold)


def _tiles(count: int) -> str:
    """"1 tile", "3 tiles", in the table's language."""
    return say(N_("{count} tile") if count == 1 else N_("{count} tiles")).format(count=count)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


class Header:
    """The band above the board, laid out for an image `width` pixels wide; `height` is known
    before drawing so the canvas can be made to fit. `you` is the seat to mark "(you)"; `feet`
    the players' own foot pictures (shown small next to "footed"); `instructions=False` leaves
    out what only players need to read (who still has to type `ready`)."""

    def __init__(self, view: View, you: int | None, feet: Mapping[int, Image.Image], width: int, *,
                 instructions: bool = True) -> None:
        self.view = view
        self.instructions = instructions
        self.you = you
        self.feet = feet
        self.width = width
        self.seats = len(view["seats"])
        fits = max(1, (width - 2 * PAD + CARD_GAP) // (CARD_MIN_WIDTH + CARD_GAP))
        self.columns = min(fits, 2 if self.seats == 4 else min(3, self.seats))
        self.card_rows = -(-self.seats // self.columns)
        self.highlighted = bool(view.get("last")) and view["last"]["kind"] == "lay"
        self.last = wrap_text(self._last_move(), TEXT, width - 2 * PAD - (44 if self.highlighted else 0), lines=3)
        self.status = wrap_text(self._status_line(), TEXT, width - 2 * PAD, bold=True, lines=4)
        self.title = self._title()
        self.turn: int | None = view.get("turn")
        self.turn_words = say(N_("{player} to move")).format(player=seat_name(view, self.turn, TITLE, bold=True)) \
            if self.turn is not None else ""
        turn_width = TURN_BADGE + 10 + text_width(self.turn_words, TITLE, bold=True)
        self.turn_inline = text_width(self.title, TITLE, bold=True) + 30 + turn_width <= width - 2 * PAD
        self.height = (PAD + TITLE + 12 + LINE * len(self.status)
                       + (TITLE + 12 if self.turn is not None and not self.turn_inline else 0)
                       + self.card_rows * (CARD_HEIGHT + CARD_GAP) + LINE * len(self.last) + PAD // 2)

    # ---- text ------------------------------------------------------------------------

    def _title(self) -> str:
        view = self.view
        leader = view["leaders"][-1] if view["leaders"] else None
        title = say(N_("Round {round}")).format(round=view["round"])
        if leader is not None:
            title += "  ·  " + say(N_("leader {tile}")).format(tile=f"{leader}:{leader}")
        return title + "  ·  " + say(N_("{tiles} in the bag")).format(tiles=_tiles(view["bag_size"]))

    def _status_line(self) -> str:
        view = self.view
        outcome = view.get("outcome")
        result = view.get("round_result")
        if outcome:
            winners = outcome.get("winners") or []
            if not winners:
                return say(N_("Game over: {reason}.")).format(reason=drawable(say(outcome.get("reason", "")), ""))
            names = _join([seat_name(view, w, bold=True) for w in winners])
            best = view["seats"][winners[0]]["score"]
            return say(N_("Game over: {players} wins with {score}.") if len(winners) == 1 else
                       N_("Game over: {players} share the win with {score}.")).format(players=names, score=best)
        if view["phase"] != "playing" and result:
            winner = result.get("winner")
            how = drawable(say(result.get("how", "")), "")
            text = say(N_("Round {round} is over: {how} (+2).") if winner is not None else
                       N_("Round {round} is over: {how}.")).format(round=result["round"], how=how)
            waiting = [seat_name(view, s, bold=True) for s in view.get("to_move", [])]
            if not self.instructions:
                return text
            if len(waiting) == self.seats:
                text += " " + say(N_("Type ready to start round {round}.")).format(round=view["round"] + 1)
            elif waiting:
                text += " " + say(N_("Waiting for {players} to type ready.")).format(players=_join(waiting))
            return text
        return ""

    def _last_move(self) -> str:
        view = self.view
        last = view.get("last")
        if not last:
            return say(N_("No move yet this round."))
        who = seat_name(view, last["seat"])
        kind = last["kind"]
        squares = last.get("squares") or []
        if kind == "lay":
            entry = next((e for e in reversed(view["board"]) if e["at"] == squares), None)
            tile = entry["tile"] if entry else say(N_("a tile"))
            template = N_("Last move: {player} laid {tile} at {squares}.")
            line: Any = None
            if entry:
                line = entry["line"]
                if isinstance(line, str):
                    template = (N_("Last move: {player} laid {tile} at {squares} starting free line {line}.")
                                if _first_of(view, entry) else
                                N_("Last move: {player} laid {tile} at {squares} on free line {line}."))
                    line = line[4:]
                elif line != last["seat"]:
                    template = N_("Last move: {player} laid {tile} at {squares} on {line}'s line.")
                    line = seat_name(view, line)
            return say(template).format(player=who, tile=tile, squares="-".join(squares), line=line)
        if kind == "draw":
            return say(N_("Last move: {player} drew a tile.")).format(player=who)
        if kind == "pass":
            footed = view["seats"][last["seat"]]["footed"]
            if squares:
                return say(N_("Last move: {player} passed and is chicken-footed, foot square {square}.")).format(
                    player=who, square=squares[0])
            return say(N_("Last move: {player} passed and is chicken-footed.") if footed else
                       N_("Last move: {player} passed.")).format(player=who)
        if kind == "spacer":
            return say(N_("Last move: {player} laid the spacer {a}-{b}; a free line starts off {b}.")).format(
                player=who, a=squares[0], b=squares[1])
        return f"{who}: {kind}."

    # ---- drawing ---------------------------------------------------------------------

    def draw(self, image: Image.Image) -> None:
        """Draw the header onto the top `height` pixels of `image`."""
        draw = ImageDraw.Draw(image)
        y = PAD
        draw_text(image, (PAD, y + TITLE // 2), self.title, TITLE, INK, anchor="lm", bold=True)
        if self.turn is not None and self.turn_inline:
            self._draw_turn(image, self.turn, None, y)
        y += TITLE + 12
        if self.turn is not None and not self.turn_inline:
            self._draw_turn(image, self.turn, PAD, y)
            y += TITLE + 12
        for line in self.status:
            draw_text(image, (PAD, y + LINE // 2 - 4), line, TEXT, INK, anchor="lm", bold=True)
            y += LINE
        card_width = (self.width - 2 * PAD - (self.columns - 1) * CARD_GAP) // self.columns
        for seat in range(self.seats):
            row, column = divmod(seat, self.columns)
            left = PAD + column * (card_width + CARD_GAP)
            top = y + row * (CARD_HEIGHT + CARD_GAP)
            self._draw_card(image, draw, seat, (left, top, left + card_width, top + CARD_HEIGHT))
        y += self.card_rows * (CARD_HEIGHT + CARD_GAP)
        text_left = PAD
        if self.highlighted:
            draw.rounded_rectangle((PAD, y + 8, PAD + 34, y + LINE - 12), radius=6, fill=HIGHLIGHT, outline=INK,
                                   width=2)
            text_left += 44
        for line in self.last:
            draw_text(image, (text_left, y + LINE // 2 - 2), line, TEXT, INK, anchor="lm")
            y += LINE

    def _draw_turn(self, image: Image.Image, turn: int, left: int | None, top: int) -> None:
        """"(3) name to move": at `left`, or against the right edge when `left` is None."""
        size = TURN_BADGE
        words = self.turn_words
        total = size + 10 + text_width(words, TITLE, bold=True)
        start = left if left is not None else self.width - PAD - total
        sprite = badge(str(turn + 1), seat_colour(turn), size, ring=INK)
        image.paste(sprite, (start, top + TITLE // 2 - size // 2), sprite)
        draw_text(image, (start + size + 10, top + TITLE // 2), words, TITLE, INK, anchor="lm", bold=True)

    def _draw_card(self, image: Image.Image, draw: ImageDraw.ImageDraw, seat: int,
                   box: tuple[int, int, int, int]) -> None:
        info = self.view["seats"][seat]
        colour = seat_colour(seat)
        left, top, right, bottom = box
        outcome = self.view.get("outcome")
        won = outcome is not None and seat in (outcome.get("winners") or [])
        to_move = won or (seat in (self.view.get("to_move") or []) and self.view["phase"] == "playing")
        gone = (info["dead"] and not outcome) or bool(info.get("resigned", False))
        fill = card_tint(colour) if not gone else GONE_CARD
        if to_move:
            grow = CARD_GAP // 2 + 1 if won else 4
            draw.rounded_rectangle((left - grow, top - grow, right + grow - 1, bottom + grow - 1), radius=14,
                                   fill=HIGHLIGHT, outline=INK, width=2)
        draw.rounded_rectangle(box, radius=10, fill=fill, outline=colour if not gone else DIM_FRAME,
                               width=4 if seat == self.you else 2)
        size = 38
        sprite = badge(str(seat + 1), colour if not gone else DEAD, size, ring=INK)
        image.paste(sprite, (left + 10, top + 10), sprite)
        text_left = left + 10 + size + 10
        score = f"{info['score']} pt" if abs(info["score"]) == 1 else f"{info['score']} pts"
        score_width = text_width(score, TEXT, bold=True)
        name = seat_name(self.view, seat) + (" " + say(N_("(you)")) if seat == self.you else "")
        name_colour = INK if not gone else MUTED
        name = fit_text(name, TEXT, right - text_left - score_width - 24, bold=True)
        row1 = top + 10 + size // 2
        draw_text(image, (text_left, row1), name, TEXT, name_colour, anchor="lm", bold=True)
        draw_text(image, (right - 12, row1), score, TEXT, name_colour, anchor="rm", bold=True)
        row2 = bottom - 12 - TEXT // 2
        details = _tiles(info["hand_size"])
        if info.get("round_score"):
            details += " · " + say(N_("round {score}")).format(score=_signed(info["round_score"]))
        state, state_colour = self._state(seat, info)
        shown_state = say(state) if state else ""
        state_width = text_width(shown_state, TEXT - 2, bold=True) if state else 0
        foot_room = 0
        if state == "footed" and self.view["phase"] == "playing":
            foot_room = 34
            medallion = framed_picture(self.feet.get(seat), 30, colour)
            image.paste(medallion, (right - 12 - state_width - foot_room, row2 - 15), medallion)
        draw_text(image, (left + 12, row2), fit_text(details, TEXT - 2, right - left - 36 - state_width - foot_room),
                  TEXT - 2, MUTED if gone else INK, anchor="lm")
        if state:
            draw_text(image, (right - 12, row2), shown_state, TEXT - 2, state_colour, anchor="rm", bold=True)

    def _state(self, seat: int, info: Mapping[str, Any]) -> tuple[str, RGB]:
        """A word for the seat's state: left, dead, footed, not started, ready..."""
        view = self.view
        outcome = view.get("outcome")
        if outcome and seat in (outcome.get("winners") or []):
            return N_("winner"), INK
        if info.get("resigned"):
            return N_("left"), MUTED
        if view["phase"] == "between rounds":
            if info.get("ready"):
                return N_("ready"), INK
            result = view.get("round_result") or {}
            return (N_("winner"), INK) if result.get("winner") == seat else ("", INK)
        if info["dead"]:
            return N_("dead"), MUTED
        if info["footed"]:
            return N_("footed"), INK
        line = next((ln for ln in view["lines"] if ln["line"] == seat), None)
        if line is not None and not line["started"]:
            return N_("not started"), MUTED
        return "", INK


def _first_of(view: View, entry: Mapping[str, Any]) -> bool:
    """Whether `entry` is the first tile of its line on the board."""
    return next(e for e in view["board"] if e["line"] == entry["line"]) is entry


def _join(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return say(N_("{names} and {last}")).format(names=", ".join(names[:-1]), last=names[-1])


# ---------------------------------------------------------------------------------------------
# The hand image

HAND_CELL = 64
HAND_PER_ROW = 10


HAND_TOP = PAD + TITLE + 12 + LINE
HAND_SLOT = HAND_CELL + 28
HAND_ROW = 2 * HAND_CELL + 16 + TEXT + SMALL + 24


def hand_slots(count: int, top: int = HAND_TOP) -> list[tuple[int, int, int, int]]:
    """Where the tiles of a `count`-tile hand are drawn: one upright tile box each, in order,
    up to ten a row, the first row `top` pixels down (below a one-line note by default)."""
    per_row = max(1, min(HAND_PER_ROW, count))
    boxes = []
    for index in range(count):
        row, column = divmod(index, per_row)
        left = PAD + column * HAND_SLOT + (HAND_SLOT - HAND_CELL) // 2
        y = top + row * HAND_ROW + 4
        boxes.append((left, y, left + HAND_CELL, y + 2 * HAND_CELL))
    return boxes


def _hand_note(view: View, tiles: list[str], playable: set[str]) -> str:
    seat = int(view["seat"])
    count = sum(1 for t in tiles if t in playable)
    if not tiles:
        return say(N_("No tiles in hand."))
    if view["phase"] != "playing":
        return say(N_("The round is over."))
    turn = view.get("turn")
    if turn == seat:
        if count:
            return say(N_("Your turn: {count} tile fits (highlighted).") if count == 1 else
                       N_("Your turn: {count} tiles fit (highlighted).")).format(count=count)
        return say(N_("Your turn: nothing fits, so draw or pass."))
    waiting = say(N_("{player}'s turn.")).format(player=seat_name(view, turn)) if turn is not None else ""
    if count:
        return waiting + " " + say(N_("{count} of yours fits now (highlighted).") if count == 1 else
                                   N_("{count} of yours fit now (highlighted).")).format(count=count)
    return waiting + " " + say(N_("Nothing of yours fits now."))


def draw_hand(view: View) -> Image.Image:
    """A seat's hand from `Tronimoes.view(seat)`: upright tiles numbered 1, 2, ... in hand order,
    each with its name under the number; tiles playable now on a yellow ground in the seat's
    colour, the others dimmed."""
    seat = int(view["seat"])
    tiles: list[str] = list(view.get("hand", []))
    playable = set(view.get("playable", []))
    per_row = max(1, min(HAND_PER_ROW, len(tiles)))
    rows = max(1, -(-len(tiles) // per_row))
    width = max(2 * PAD + per_row * HAND_SLOT, 640)
    note = wrap_text(_hand_note(view, tiles, playable).strip(), TEXT, width - 2 * PAD, lines=3)
    top = HAND_TOP + LINE * (len(note) - 1)
    slots = hand_slots(len(tiles), top)
    image = Image.new("RGB", (width, top + rows * HAND_ROW + PAD), PAPER)
    draw = ImageDraw.Draw(image)
    sprite = badge(str(seat + 1), seat_colour(seat), TURN_BADGE, ring=INK)
    image.paste(sprite, (PAD, PAD - 3), sprite)
    title = fit_name(seat_name(view, seat, TITLE, bold=True), say(N_("'s hand: {tiles}")).format(
        tiles=_tiles(len(tiles))), TITLE,
                     width - 2 * PAD - TURN_BADGE - 10, bold=True)
    draw_text(image, (PAD + TURN_BADGE + 10, PAD + TITLE // 2), title, TITLE, INK, anchor="lm", bold=True)
    for index, line in enumerate(note):
        draw_text(image, (PAD, PAD + TITLE + 12 + LINE // 2 - 4 + index * LINE), line, TEXT, INK, anchor="lm")
    cell = HAND_CELL
    for index, (name, (left, top, right, bottom)) in enumerate(zip(tiles, slots, strict=True)):
        a, b = (int(p) for p in name.split(":"))
        if name in playable:
            draw.rounded_rectangle((left - 6, top - 6, right + 5, bottom + 5), radius=14, fill=HIGHLIGHT, outline=INK,
                                   width=2)
            style = playable_style(seat)
        else:
            style = DIM_STYLE
        paste_tile(image, style, cell, ((left, top, right, top + cell), (left, top + cell, right, bottom)), (a, b))
        label_y = bottom + 12 + TEXT // 2
        ink = INK if name in playable else MUTED
        draw_text(image, (left + cell / 2, label_y), str(index + 1), TEXT, ink, anchor="mm", bold=True)
        draw_text(image, (left + cell / 2, label_y + TEXT // 2 + 6 + SMALL // 2), name, SMALL, ink, anchor="mm")
    return image
