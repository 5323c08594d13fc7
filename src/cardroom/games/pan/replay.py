"""Replaying a Pan hand history action by action (`cardroom.history`; its writer:
`cardroom.games.pan.history`): each action is the `PanHand` action of its type, called with
the action's recorded fields (`cardroom.history.apply_named`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from cardroom import history
from cardroom.errors import CardroomError
from cardroom.history import HIDDEN_CARD, GameReplay, HandHistory, HistoryError, apply_named
from cardroom.houserules import build_rules

from .cards import pan_pack
from .engine import PanHand, SeatSpec
from .events import ChipsMoved
from .rules import PanRules

FIELDS: dict[str, Callable[[Any], Any]] = {
    "payments": lambda paid: {int(k): int(v) for k, v in paid.items()}}
"""Pan's own recorded field (`cardroom.history.arguments`): a split's payments, by seat."""


def apply_recorded(hand: PanHand, action: dict[str, Any]) -> None:
    """One recorded action applied through the hand's own checked action of its name, a
    reshuffled stock's unseen cards filled with the discards it was made of."""
    if action.get("type") == "reshuffle_stock" and HIDDEN_CARD in (action.get("order") or []):
        action = {**action, "order": [str(c) for c in history.with_hidden_filled(
            action["order"], [d.card for d in hand.discards[:-1]], "reshuffled stock")]}
    apply_named(hand, action, FIELDS, "Pan")


class Replay(GameReplay[None]):
    """Every recorded action applied through `PanHand` (the movements are its `ChipsMoved`
    events, its seats the history's, numbered by their place). A voided hand ends in the void
    action (`cardroom.history.VOID`: every stack as before the hand); the room writes it with
    no pack (`room.hands.void_history`: no card of the hand shown), a history with its pack
    as recorded replays its actions first."""

    game, unit, house, errors, hides = "pan", "chips", "tops", (CardroomError,), True

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        rules = build_rules(PanRules, h.rules, "history rules")
        self.read_seats(h, "seat")
        self.hand: PanHand | None = None
        if not h.pack:  # a voided hand's record: the seats only
            return
        pack = pan_pack(rules)
        spades = ", less one pack's spades" if rules.remove_one_spade_pack else ""
        self.check_pack(pack, True, f"pack is not the Pan pack ({rules.packs} packs without "
                        f"8s, 9s and 10s{spades})")
        try:
            seats = [SeatSpec(n, c, bool(s.get("doubles", False)))
                     for n, c, s in zip(self.names, self.start, h.seats, strict=True)]
            dealer, counts = int(h.setup.get("dealer", 0)), h.setup.get("deal_counts")
            carried = tuple(h.setup.get("carried_tops") or (0, 0))
            tops = (int(carried[0]), int(carried[1]))
        except (TypeError, ValueError, IndexError) as exc:
            raise HistoryError(f"history setup malformed: {exc}") from None
        self.hand = PanHand(rules, seats, dealer, history.with_hidden_filled(h.pack, pack, "pack"),
                            counts, tops)

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
