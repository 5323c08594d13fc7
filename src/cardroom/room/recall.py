"""Game recall: replay a hand from its history through the same engine code and check that it
gives the recorded result. A history that does not replay is reported, not trusted.

Hands are recorded in the project's shared hand-history format (`cardroom.history`); each game
replays its own (`cardroom.games.<game>.replay`). A record in any other format (the first
room's `cardroom-hand-history/1`, which lived one day) is reported as such, not replayed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardroom.errors import CardroomError
from cardroom.games.baccarat.wagers import WagerKind
from cardroom.games.pan.replay import boards as pan_boards
from cardroom.history import FORMAT, HIDDEN_CARD, HandHistory, ReplayReport
from cardroom.history import replay as replay_history
from cardroom.money import format_money
from cardroom.room.live_table import card_json


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
    """Why the viewer of `r` may not download its history file, or None. No record a person
    can read gives a card he may not see: a Pan history's pack names every card dealt, the
    other players' concealed hands too, and a copy with those hidden would not replay (rules
    14A and 17 and foul rule 5B read the whole hand of the player who acts, which "??" cards
    filled at random cannot restore), so a Pan hand's file is the staff's ('read every
    record'); a player's recall shows the hand as he saw it."""
    pack = r.record.get("pack") or []
    if r.seen_by is None or r.record.get("game") != "pan" or \
            all(c == HIDDEN_CARD for c in pack):
        return None
    return ("This hand's history file names every card dealt, the other players' concealed "
            "hands too, so only the floor or the auditor may download it; this page shows "
            "the hand as you saw it.")


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
    """The hand's seats as people count them, from 1: a room table's own seat (Pan's
    `table_seat`, Super Pan 9's and Pai Gow's `seat`), baccarat's places in order."""
    game = record.get("game")
    out = []
    for i, s in enumerate(record.get("seats") or []):
        number = s.get("table_seat") if game == "pan" else (
            i + 1 if game == "baccarat" else s.get("seat"))
        out.append({"number": number if isinstance(number, int) else i + 1,
                    "name": str(s.get("name", "?")), "chips": s.get("chips", 0)})
    return out


def _seat_name(record: dict[str, Any], seat: object) -> str | None:
    """Who an action's `seat` (or `spot`) names: Pan and baccarat count the history's seats
    from 0; Super Pan 9 and Pai Gow name the table seat."""
    seats = record.get("seats") or []
    if not isinstance(seat, int):
        return None
    if record.get("game") in ("pan", "baccarat"):
        return str(seats[seat].get("name")) if 0 <= seat < len(seats) else None
    named = [s.get("name") for s in seats if s.get("seat") == seat]
    return str(named[0]) if named else ("the dealer" if seat == 0 else None)


def wager_name(kind: str) -> str:
    """A recorded wager's name as the layout says it ("player_9": "Player 9", "progressive":
    "Jackpot"); a game's other wagers ("wager", "tie") in words."""
    if kind in {k.value for k in WagerKind}:
        return WagerKind(kind).label
    return kind.replace("_", " ")


def _amount(value: int, unit: str) -> str:
    return format_money(value) if unit == "cents" else \
        f"{value} chip{'s' if abs(value) != 1 else ''}"


def action_words(record: dict[str, Any], action: dict[str, Any]) -> str:
    """One recorded action in plain words: who, what, how much (cards are drawn beside it)."""
    unit = (record.get("setup") or {}).get("unit", "chips")
    kind = str(action.get("type", "?"))
    who = _seat_name(record, action.get("seat", action.get("spot")))
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


def recall_steps(r: Replay) -> list[dict[str, Any]]:
    """The hand action by action, for the recall page: the words, the cards the action names,
    the money it moved, every seat's stack after it, and for Pan the whole table after it.
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
    boards = _pan_boards(r) if record.get("game") == "pan" else []
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
        steps.append({"number": i + 1, "words": action_words(record, action),
                      "cards": [card_json(c) for c in _card_texts(action)], "moved": moved,
                      "stacks": [_amount(c, unit) for c in chips],
                      "board": _board_json(boards[i]) if i < len(boards) else None})
    return steps


def _pan_boards(r: Replay) -> list[dict[str, Any]]:
    """Pan's table after each step, as `r.seen_by` saw it (a seat of the hand, by its account;
    an account not seated at it sees no concealed hand)."""
    if r.seen_by is None:
        return pan_boards(history_of(r.record))
    seats = r.record.get("seats") or []
    mine = [i for i, s in enumerate(seats) if s.get("account") == r.seen_by]
    return pan_boards(history_of(r.record), mine[0] if mine else None, everything=False)


def _board_json(board: dict[str, Any]) -> dict[str, Any]:
    return {**board, "seats": [{**s, "hand": None if s["hand"] is None else
                                [card_json(c) for c in s["hand"]],
                                "melds": [[card_json(c) for c in m] for m in s["melds"]]}
                               for s in board["seats"]],
            "drawn": card_json(board["drawn"]) if board["drawn"] else None,
            "discard": card_json(board["discard"]) if board["discard"] else None}


def _shown(card: object) -> dict[str, Any]:
    """A recorded card as the page draws it (text, or the room's `{code, text}` already)."""
    if isinstance(card, dict):
        return {"code": int(card["code"]), "text": str(card["text"])}
    return card_json(str(card))


def final_cards(record: dict[str, Any]) -> list[dict[str, Any]]:
    """The hand's cards as they lay at the end, per hand on the table: baccarat's player and
    banker, each Pai Gow setting (high and low hands), Super Pan 9's cards in the order they
    left the shoe; Pan's table is drawn from its last step."""
    result = record.get("result") or {}
    game = record.get("game")
    if game == "baccarat" and result.get("player"):
        return [{"name": "Player", "cards": [_shown(c) for c in result["player"]]},
                {"name": "Banker", "cards": [_shown(c) for c in result["banker"]]}]
    if game == "pai-gow":
        out = []
        for spot in result.get("spots") or []:
            setting = spot.get("setting") or {}
            name = _seat_name(record, spot.get("spot")) or f"seat {spot.get('spot')}"
            out.append({"name": f"{name}, low hand", "cards": [_shown(c) for c in
                                                              setting.get("front", [])]})
            out.append({"name": f"{name}, high hand", "cards": [_shown(c) for c in
                                                               setting.get("back", [])]})
        return out
    if game == "super-pan-9" and record.get("pack"):
        return [{"name": "Cards in the order dealt",
                 "cards": [_shown(c) for c in record["pack"] if c != HIDDEN_CARD]}]
    return []


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
