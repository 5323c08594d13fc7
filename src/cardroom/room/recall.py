"""Game recall: replay a hand from its history through the same engine code and check that it
gives the recorded result. A history that does not replay is reported, not trusted.

Hands are recorded in the project's shared hand-history format (`cardroom.history`); each game
replays its own (`cardroom.games.<game>.replay`). Hands recorded by earlier versions of the
room (`cardroom-hand-history/1`, baccarat only) still replay.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardroom.cards import parse_card
from cardroom.errors import CardroomError
from cardroom.games.baccarat.coup import Coup
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import WagerKind, settle_wager
from cardroom.history import FORMAT, HandHistory, ReplayReport
from cardroom.history import replay as replay_history
from cardroom.houserules import build_rules

LEGACY_FORMAT = "cardroom-hand-history/1"


@dataclass(frozen=True)
class Replay:
    hand: int
    ok: bool
    problems: tuple[str, ...]
    record: dict[str, Any]
    report: ReplayReport | None = None


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


def problems_of(report: ReplayReport) -> list[str]:
    out: list[str] = []
    if report.failure is not None:
        f = report.failure
        out.append(f"action {f.index} ({f.action.get('type')}) is refused on replay: "
                   f"{f.message}")
    if report.result_matches is False:
        out.append("the recorded result differs from what the history replays as")
    return out


def replay_baccarat(record: dict[str, Any]) -> list[str]:
    """A legacy (`cardroom-hand-history/1`) baccarat record."""
    rules = build_rules(BaccaratRules, record["rules"], "recorded rules")
    coup = Coup()
    problems: list[str] = []
    for step in record["cards"]:
        expected = coup.next_hand()
        if expected is None or expected.value != step["hand"]:
            problems.append(f"card {step['card']} was dealt to {step['hand']} out of order")
            return problems
        coup.deal(parse_card(step["card"]))
    if not coup.complete:
        return ["the recorded coup is incomplete"]
    result = coup.result()
    if [str(c) for c in result.player] != record["player"] or \
            [str(c) for c in result.banker] != record["banker"]:
        problems.append("the recorded hands differ from the cards dealt")
    for s in record["settlements"]:
        kind = WagerKind(s["kind"])
        share = s["won"] + s["stake"] if s["outcome"] == "jackpot" else 0
        again = settle_wager(kind, s["stake"], result, rules, share)
        if (again.outcome, again.won, again.commission) != (s["outcome"], s["won"],
                                                            s["commission"]):
            problems.append(f"{s['seat']}'s {kind.value} wager was recorded as {s['outcome']} "
                            f"{s['won']} but replays as {again.outcome} {again.won}")
    return problems


def replay(record: dict[str, Any]) -> Replay:
    hand = int(record.get("hand", 0))
    voided_history = record.get("status") == "voided" and record.get("format") == FORMAT
    if record.get("status") != "settled" and not voided_history:
        return Replay(hand, True, (), record)
    if record.get("format") == LEGACY_FORMAT:
        if record.get("game") != "baccarat":
            return Replay(hand, False, (f"no recall for a {record.get('game')!r} record of "
                                        f"the format {LEGACY_FORMAT}",), record)
        try:
            problems = replay_baccarat(record)
        except (CardroomError, KeyError, TypeError, ValueError) as exc:
            problems = [f"the record cannot be replayed: {exc!r}"]
        return Replay(hand, not problems, tuple(problems), record)
    try:
        report = replay_history(history_of(record))
    except CardroomError as exc:
        return Replay(hand, False, (f"the history cannot be replayed: {exc}",), record)
    problems = problems_of(report)
    return Replay(hand, report.ok and not problems, tuple(problems), record, report)
