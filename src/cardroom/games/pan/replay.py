"""Replaying a Pan hand history action by action (`cardroom.history`; its writer:
`cardroom.games.pan.history`): each action is the `PanHand` action of its type, called with
the action's recorded fields (`cardroom.history.arguments`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardroom import history
from cardroom.cards import Card, parse_card
from cardroom.errors import CardroomError
from cardroom.history import HIDDEN_CARD, GameReplay, HandHistory, HistoryError, arguments
from cardroom.houserules import build_rules

from .cards import pan_pack
from .engine import PanHand, SeatSpec
from .errors import PanRuleError
from .events import ChipsMoved
from .rules import PanRules

FIELDS = {"payments": lambda paid: {int(k): int(v) for k, v in paid.items()}}
"""Pan's own recorded field (`arguments`): a split's payments, by seat."""


def pack_problem(pack: Sequence[Card], rules: PanRules, hidden: int = 0) -> str | None:
    """Why `pack` (the cards a history names, and `hidden` unseen places) is not exactly the
    game's pack under `rules` (every card of `packs` packs without 8s, 9s and 10s, less one
    pack's spades with that option), or None. A replay checks it before any action: a pack
    with extra or foreign cards would let impossible melds be made and paid."""
    want = Counter(pan_pack(rules))
    what = (f"{rules.packs} packs without 8s, 9s and 10s"
            + (", less one pack's spades" if rules.remove_one_spade_pack else ""))
    for card, n in sorted(Counter(pack).items(), key=lambda kv: str(kv[0])):
        if not want[card]:
            return f"the history's pack holds {card}, which the Pan pack ({what}) does not hold"
        if n > want[card]:
            return (f"the history's pack holds {n} of {card}, the Pan pack ({what}) only "
                    f"{want[card]}")
    if len(pack) + hidden != want.total():
        return (f"the history's pack has {len(pack) + hidden} cards, not the "
                f"{want.total()} of the Pan pack ({what})")
    return None


def start_hand(h: HandHistory) -> PanHand:
    """The hand a history with its pack records, before its first action (seats numbered by
    their place in the history), its pack checked (`pack_problem`)."""
    rules = build_rules(PanRules, h.rules, "history rules")
    try:
        seats = [SeatSpec(str(s["name"]), int(s["chips"]), bool(s.get("doubles", False)))
                 for s in h.seats]
        named = [parse_card(c) for c in h.pack if c != HIDDEN_CARD]
        problem = pack_problem(named, rules, hidden=len(h.pack) - len(named))
        if problem is not None:
            raise HistoryError(problem)
        pack = history.with_hidden_filled(h.pack, pan_pack(rules), "pack")
        dealer, counts = int(h.setup.get("dealer", 0)), h.setup.get("deal_counts")
        carried = tuple(h.setup.get("carried_tops") or (0, 0))
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"history seats or setup malformed: {exc}") from None
    return PanHand(rules, seats, dealer, pack, counts, (int(carried[0]), int(carried[1])))


RECORDED_KINDS = frozenset(PanHand.action_names())
"""The actions a history may record: the engine's own."""


def apply_recorded(hand: PanHand, action: dict[str, Any]) -> None:
    """One recorded action applied through the hand's own checked action of its name (only
    the engine's actions: `PanHand.action_names`)."""
    kind = action.get("type")
    if kind not in RECORDED_KINDS:
        raise PanRuleError("hand history", f"unknown action {kind!r}")
    if kind == "reshuffle_stock" and HIDDEN_CARD in (action.get("order") or []):
        action = {**action, "order": [str(c) for c in history.with_hidden_filled(
            action["order"], [d.card for d in hand.discards[:-1]], "reshuffled stock")]}
    try:
        getattr(hand, str(kind))(**arguments(action, FIELDS))
    except TypeError as exc:
        raise PanRuleError("hand history", f"bad arguments for {kind}: {exc}") from None


class Replay(GameReplay[None]):
    """Every recorded action applied through `PanHand` (the movements are its `ChipsMoved`
    events, its seats the history's). A voided hand ends in the void action
    (`cardroom.history.VOID`: every stack as before the hand); the room writes it with no pack
    (`room.hands.void_history`: no card of the hand shown), a history with its pack as
    recorded replays its actions first."""

    game, unit, house, errors = "pan", "chips", "tops", (CardroomError,)

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        self.hand: PanHand | None = None
        if not h.pack:  # a voided hand's record: the seats only
            build_rules(PanRules, h.rules, "history rules")
            self.read_seats(h, "seat")
            return
        self.hand = hand = start_hand(h)
        self.names = [s.name for s in hand.seats.values()]
        self.start = [s.start_chips for s in hand.seats.values()]

    def apply(self, index: int, action: dict[str, Any]) -> None:
        hand = self.hand
        if hand is None:
            raise HistoryError("a Pan history with no pack holds only the void")
        mark = len(hand.events)
        apply_recorded(hand, action)
        self.movements += [{"index": index, "payer": ev.payer, "payee": ev.payee,
                            "chips": ev.chips, "reason": ev.reason}
                           for ev in hand.events[mark:] if isinstance(ev, ChipsMoved)]

    def rule_of(self, action: dict[str, Any], exc: Exception) -> tuple[str, str]:
        return "card or argument", str(exc)

    def final(self) -> list[int]:
        return list(self.start) if self.hand is None else \
            [s.chips for s in self.hand.seats.values()]

    def outcome(self) -> str:
        hand = self.hand
        if hand is None:
            return "no card dealt"
        outcome = hand.end_reason or f"unfinished ({hand.phase.value})"
        if hand.winner is not None:
            outcome += f"; winner {hand.seats[hand.winner].name}"
        return outcome

    def matches(self, result: dict[str, Any], final: list[int]) -> bool | None:
        return list(result["chips"]) == final if "chips" in result else None
