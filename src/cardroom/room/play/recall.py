"""Game recall: replay a hand from its history through the same engine code and check that it
gives the recorded result. A history that does not replay is reported, not trusted.

Hands are recorded in the project's shared hand-history format (`cardroom.history`); each game
replays its own (its registry entry's `replay`), and reads on the recall page as its recall
view says (`RecallView`, the registry's `recall`). A record in any other format (the first
room's `cardroom-hand-history/1`, which lived one day) is reported as such, not replayed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, ClassVar

from cardroom import registry
from cardroom.errors import CardroomError
from cardroom.history import FORMAT, HIDDEN_CARD, HandHistory, ReplayReport
from cardroom.history import replay as replay_history
from cardroom.money import format_money
from cardroom.room.play.live_table import card_json


@dataclass(frozen=True)
class Replay:
    hand: int
    ok: bool
    problems: tuple[str, ...]
    record: dict[str, Any]
    report: ReplayReport | None = None
    seen_by: int | None = None
    """The account whose recall it is: a player of the hand sees the steps as he saw them at
    the table (Pan: his own hand, others' only when played face up); None: everything (the
    floor, the auditor)."""


class RecallView:
    """How a game's recorded hands read on the recall page (the registry's `recall` part).
    By default: an action's `seat` (or `spot`) names a table seat, which the history's seats
    carry (`seat`); no board after each step, no cards at the end, the file is anyone's who
    may read the hand."""

    seats_by_index: ClassVar[bool] = False
    """Whether an action's `seat` counts the history's seats from 0 instead."""

    def seat_number(self, index: int, seat: dict[str, Any]) -> object:
        """A history seat's number as people count it at the table (from 1)."""
        return seat.get("seat")

    def wager_label(self, kind: str) -> str | None:
        """A recorded wager's name as the game's layout says it, or None: not the game's."""
        return None

    def result_label(self, outcome: str) -> str | None:
        """A settlement's outcome in the game's words ("suited nine": "wins on a suited 9"), or
        None: not the game's."""
        return None

    def boards(self, r: Replay) -> list[dict[str, Any]]:
        """The whole table after each step, as `r.seen_by` saw it (none by default)."""
        return []

    def final_cards(self, record: dict[str, Any]) -> list[dict[str, Any]]:
        """The hand's cards as they lay at the end, per hand on the table."""
        return []

    def file_withheld(self, r: Replay) -> str | None:
        """Why the viewer of `r` may not download its history file (None: they may)."""
        return None


def view_of(record: dict[str, Any]) -> RecallView:
    """The recall view of the record's game (a game the registry does not list: the
    default)."""
    game = registry.find(str(record.get("game")))
    view = RecallView if game is None or game.recall is None else registry.load(game.recall)
    assert isinstance(view, type) and issubclass(view, RecallView)
    return view()


def history_of(record: dict[str, Any]) -> HandHistory:
    """The shared-format history of a closed hand's record (the room's fields dropped)."""
    if record.get("format") != FORMAT:
        hand, status = record.get("hand"), record.get("status")
        if status == "voided":
            why = f": {record['reason']}" if record.get("reason") else ""
            raise CardroomError(f"hand {hand} was voided{why}; it has no history to replay")
        if status == "open":
            raise CardroomError(f"hand {hand} is still in progress; its history is written "
                                "when it settles")
        raise CardroomError(f"hand {hand} was recorded in an older format "
                            f"({record.get('format', 'none')}); it has no history in the "
                            "shared format")
    return HandHistory.from_json(record, f"hand {record.get('hand')}")


def file_withheld(r: Replay) -> str | None:
    """Why the viewer of `r` may not download its history file, or None: no record a person
    can read gives a card he may not see (the game's recall view decides)."""
    return view_of(r.record).file_withheld(r)


def problems_of(report: ReplayReport) -> list[str]:
    out: list[str] = []
    if report.failure is not None:
        f = report.failure
        out.append(f"action {f.index} ({f.action.get('type')}) is refused on replay: "
                   f"{f.message}")
    if report.result_matches is False:
        out.append("the recorded result differs from what the history replays as")
    return out


def replay(record: dict[str, Any]) -> Replay:
    hand = int(record.get("hand", 0))
    voided_history = record.get("status") == "voided" and record.get("format") == FORMAT
    if record.get("status") != "settled" and not voided_history:
        return Replay(hand, True, (), record)
    try:
        report = replay_history(history_of(record))
    except CardroomError as exc:
        return Replay(hand, False, (f"the history cannot be replayed: {exc}",), record)
    problems = problems_of(report)
    return Replay(hand, report.ok and not problems, tuple(problems), record, report)


# the recall page: the hand step by step ---------------------------------------------------------

CARD_FIELDS = ("card", "cards", "borrowed", "front", "part", "order")
"""The fields of a recorded action that hold cards (Pan's arguments, Pai Gow's `front`, Super
Pan 9's `reveal`). A reshuffled stock's `order` is never shown: it is the stock."""


def _card_texts(action: dict[str, Any]) -> list[str]:
    out: list[str] = []
    for key in CARD_FIELDS:
        v = action.get(key)
        if key == "order" or v is None:
            continue
        for text in v if isinstance(v, list) else [v]:
            if isinstance(text, str) and text != HIDDEN_CARD:
                out.append(text)
    return out


def people_seats(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The hand's seats as people count them, from 1: a room table's own seat, as the game's
    recall view reads it (`RecallView.seat_number`)."""
    view = view_of(record)
    out = []
    for i, s in enumerate(record.get("seats") or []):
        number = view.seat_number(i, s)
        out.append({"number": number if isinstance(number, int) else i + 1,
                    "name": str(s.get("name", "?")), "chips": s.get("chips", 0)})
    return out


def seat_name(record: dict[str, Any], seat: object) -> str | None:
    """Who an action's `seat` (or `spot`) names: the table seat, or the history's seat from
    0 where the game's recall view counts them so (`seats_by_index`)."""
    seats = record.get("seats") or []
    if not isinstance(seat, int):
        return None
    if view_of(record).seats_by_index:
        return str(seats[seat].get("name")) if 0 <= seat < len(seats) else None
    named = [s.get("name") for s in seats if s.get("seat") == seat]
    return str(named[0]) if named else ("the dealer" if seat == 0 else None)


def _labels(label: Callable[[RecallView], str | None]) -> Iterator[str]:
    """What the registered games' recall views say of something, in the registry's order
    (the views that do not know it say nothing)."""
    for game in registry.games():
        if game.recall is not None:
            view = registry.load(game.recall)
            assert isinstance(view, type) and issubclass(view, RecallView)
            said = label(view())
            if said is not None:
                yield said


def wager_name(kind: str) -> str:
    """A recorded wager's name as its game's layout says it (a registered game's recall view
    that knows it: "player_9": "Player 9"), else in words ("wager", "tie")."""
    return next(_labels(lambda view: view.wager_label(kind)), kind.replace("_", " "))


def result_words(outcome: str) -> str:
    """A settlement's outcome as a person reads it (the first registered game's recall view
    that knows it: "suited nine": "wins on a suited 9"), else as recorded."""
    return next(_labels(lambda view: view.result_label(outcome)), outcome)


def _amount(value: int, unit: str) -> str:
    return format_money(value) if unit == "cents" else \
        f"{value} chip{'s' if abs(value) != 1 else ''}"


def action_words(record: dict[str, Any], action: dict[str, Any]) -> str:
    """One recorded action in plain words: who, what, how much (cards are drawn beside it)."""
    unit = (record.get("setup") or {}).get("unit", "chips")
    kind = str(action.get("type", "?"))
    who = seat_name(record, action.get("seat", action.get("spot")))
    words = {"dealer_draw": "the dealer draws", "deal": "the deal", "reveal":
             "the dealer turns the cards over", "house_way": "set the house way",
             "set": "set the hand", "void": "the floor voids the hand",
             "irregularity": "the floor records an irregularity",
             "expose": "a card exposed", "card_count": "the floor counts the cards"}.get(
                 kind, kind.replace("_", " "))
    extra: list[str] = []
    if kind == "irregularity" and isinstance(action.get("kind"), str):
        extra.append(action["kind"].replace("-", " "))
    if isinstance(action.get("count"), int):
        extra.append(f"{action['count']} cards")
    for key in ("amount", "tie", "dealer_wager"):
        if isinstance(action.get(key), int) and action[key]:
            extra.append(("tie " if key == "tie" else "") + _amount(action[key], unit))
    if isinstance(action.get("bets"), dict):
        extra += [f"{wager_name(k)} {_amount(v, unit)}" for k, v in action["bets"].items()
                  if isinstance(v, int)]
    if isinstance(action.get("meld"), int):
        extra.append(f"spread {action['meld'] + 1}")
    if isinstance(action.get("dice"), list):
        extra.append("dice " + " ".join(str(d) for d in action["dice"]))
    if action.get("reason"):
        extra.append(str(action["reason"]))
    text = f"{who}: {words}" if who else words
    return text + (f" ({', '.join(extra)})" if extra else "")


def taken_for(record: dict[str, Any], index: int) -> str:
    """Who took the history's action `index` for the player whose turn it was (the room's
    `taken_for`, written by `LiveTable.record_default`), in words for the recall ("" when the
    player acted, or the record predates it): a dispute turns on it."""
    for entry in record.get("taken_for") or []:
        if isinstance(entry, dict) and entry.get("action") == index:
            if entry.get("by") == "timer":
                seconds = entry.get("seconds")
                after = f": no action in {seconds} s" if isinstance(seconds, int) else ""
                return f" (taken by the turn timer{after})"
            return f" (taken for the player by {entry.get('by')})"
    return ""


def recall_steps(r: Replay) -> list[dict[str, Any]]:
    """The hand action by action, for the recall page: the words, the cards the action names,
    the money it moved, every seat's stack after it, and the whole table after it where the
    game's recall view draws it (`boards`).
    Built from the history as replayed (a hand that does not replay stops where it fails)."""
    record, report = r.record, r.report
    if report is None or record.get("format") != FORMAT:
        return []
    seats = people_seats(record)
    unit = report.unit
    chips = list(report.final_chips)  # back to before the first action (Pan's tops are
    for m in report.movements:         # taken by the deal itself, before any action)
        if m["payer"] is not None:
            chips[m["payer"]] += m["chips"]
        if m["payee"] is not None:
            chips[m["payee"]] -= m["chips"]
    boards = view_of(record).boards(r)
    steps = []
    for i, action in enumerate(record.get("actions") or []):
        if i >= report.actions_applied and report.failure is not None:
            break
        moved = []
        for m in report.movements:
            if m["index"] != i:
                continue
            payer, payee = m["payer"], m["payee"]
            if payer is not None:
                chips[payer] -= m["chips"]
            if payee is not None:
                chips[payee] += m["chips"]
            name = [report.house if p is None else seats[p]["name"] for p in (payer, payee)]
            moved.append(f"{name[0]} pays {name[1]} {_amount(m['chips'], unit)} "
                         f"({m['reason']})")
        steps.append({"number": i + 1, "words": action_words(record, action) + taken_for(record, i),
                      "cards": [card_json(c) for c in _card_texts(action)], "moved": moved,
                      "stacks": [_amount(c, unit) for c in chips],
                      "board": board_json(boards[i]) if i < len(boards) else None})
    return steps


def board_json(board: dict[str, Any]) -> dict[str, Any]:
    return {**board, "seats": [{**s, "hand": None if s["hand"] is None else
                                [card_json(c) for c in s["hand"]],
                                "melds": [[card_json(c) for c in m] for m in s["melds"]]}
                               for s in board["seats"]],
            "drawn": card_json(board["drawn"]) if board["drawn"] else None,
            "discard": card_json(board["discard"]) if board["discard"] else None}


def shown(card: object) -> dict[str, Any]:
    """A recorded card as the page draws it (text, or the room's `{code, text}` already)."""
    if isinstance(card, dict):
        return {"code": int(card["code"]), "text": str(card["text"])}
    return card_json(str(card))


def final_cards(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The hand's cards as they lay at the end, per hand on the table (its game's recall
    view's `final_cards`)."""
    return view_of(record).final_cards(record)


def recall_page(r: Replay) -> dict[str, Any]:
    """Everything the recall page draws beside the record: the players (seat counted from 1,
    stacks before and after, what each won or lost), the cards at the end, the steps, Pan's
    table after each step (drawn by the page's stepper), the seat names in order."""
    seats = people_seats(r.record)
    report = r.report
    if report is not None:
        unit = report.unit
        for s, before, after in zip(seats, report.start_chips, report.final_chips,
                                    strict=False):
            net = after - before
            s.update(before=_amount(before, unit), after=_amount(after, unit),
                     net=("+" if net > 0 else "") + _amount(net, unit))
    else:
        seats = []
    steps = recall_steps(r)
    boards = [s.pop("board") for s in steps]
    return {"seats": seats, "seat_names": [s["name"] for s in people_seats(r.record)],
            "steps": steps, "boards": boards if any(b is not None for b in boards) else [],
            "final": final_cards(r.record)}
