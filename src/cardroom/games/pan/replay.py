"""Replaying a Pan hand history action by action (`cardroom.history`; its writer:
`cardroom.games.pan.history`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from cardroom.cards import Card, parse_card
from cardroom.errors import CardroomError
from cardroom.history import HIDDEN_CARD, GameReplay, HandHistory, HistoryError
from cardroom.houserules import build_rules

from .cards import pan_pack
from .engine import PanHand, SeatSpec
from .errors import PanRuleError
from .events import ChipsMoved
from .rules import PanRules

ACTIONS = frozenset({
    "declare", "knock", "change_declaration", "correct_count", "draw", "take", "meld", "lay_off",
    "borrow", "split", "collect", "discard", "go_out", "reshuffle_stock", "call_foul",
    "declare_own_foul", "floor_foul", "extra_discard", "skip_discard", "drop_card",
    "spread_invalid", "correct_meld", "keep_drawn", "declare_out", "throw_in",
    "foul_by_false_out",
    "remove_board_card", "settle", "play_face_up", "force_option_card", "force_back",
    "offer_split", "accept_split", "decline_split", "take_tops",
})
CARD_ARGS = frozenset({"card"})
CARDS_ARGS = frozenset({"cards", "borrowed", "part", "order"})


def with_hidden_filled(cards: list[Any], whole: Iterable[Card], what: str) -> list[Card]:
    """`cards` with each `HIDDEN_CARD` replaced by the cards of `whole` that `cards` does not
    name, in sorted order: no play depends on where an unseen card lay."""
    known = [parse_card(c) for c in cards if c != HIDDEN_CARD]
    rest = Counter(whole)
    rest.subtract(Counter(known))
    if any(n < 0 for n in rest.values()) or rest.total() != len(cards) - len(known):
        raise HistoryError(f"the {what}'s hidden cards are not the rest of the {what}")
    fill = iter(sorted(rest.elements()))
    return [next(fill) if c == HIDDEN_CARD else parse_card(c) for c in cards]


def start_hand(h: HandHistory) -> PanHand:
    rules = build_rules(PanRules, h.rules, "history rules")
    try:
        seats = [SeatSpec(str(s["name"]), int(s["chips"]), bool(s.get("doubles", False)))
                 for s in h.seats]
        named = [parse_card(c) for c in h.pack if c != HIDDEN_CARD]
        problem = pack_problem(named, rules, hidden=len(h.pack) - len(named))
        if problem is not None:
            raise HistoryError(problem)
        pack = with_hidden_filled(h.pack, pan_pack(rules), "pack") \
            if HIDDEN_CARD in h.pack else named
        dealer = int(h.setup.get("dealer", 0))
        counts = h.setup.get("deal_counts")
        carried = tuple(h.setup.get("carried_tops") or (0, 0))
    except (KeyError, TypeError, ValueError) as exc:
        raise HistoryError(f"history seats or setup malformed: {exc}") from None
    return PanHand(rules, seats, dealer, pack, counts, (int(carried[0]), int(carried[1])))


def pack_problem(pack: Sequence[Card], rules: PanRules, hidden: int = 0) -> str | None:
    """Why `pack` (the cards a history names, and `hidden` unseen places) is not exactly the
    game's pack under `rules` (every card of `packs` packs without 8s, 9s and 10s, less one
    pack's spades with that option), or None. A replay checks it before any action: a pack
    with extra or foreign cards would let impossible melds be made and paid."""
    want = Counter(pan_pack(rules))
    have = Counter(pack)
    what = (f"{rules.packs} packs without 8s, 9s and 10s"
            + (", less one pack's spades" if rules.remove_one_spade_pack else ""))
    for card, n in sorted(have.items(), key=lambda kv: str(kv[0])):
        if card not in want:
            return (f"the history's pack holds {card}, which the Pan pack ({what}) does not "
                    "hold")
        if n > want[card]:
            return (f"the history's pack holds {n} of {card}, the Pan pack ({what}) only "
                    f"{want[card]}")
    if len(pack) + hidden != sum(want.values()):
        return (f"the history's pack has {len(pack) + hidden} cards, not the "
                f"{sum(want.values())} of the Pan pack ({what})")
    return None


def action_arguments(action: dict[str, Any]) -> dict[str, Any]:
    """A recorded action's arguments as the hand's method takes them (cards parsed)."""
    return {k: _arg(k, v) for k, v in action.items() if k != "type"}


def _arg(name: str, value: Any) -> Any:
    if name in CARD_ARGS:
        return None if value is None else parse_card(value)
    if name in CARDS_ARGS:
        if not isinstance(value, list):
            raise HistoryError(f"{name} must be a list of cards")
        return tuple(parse_card(c) for c in value)
    if name == "payments":
        return {int(k): int(v) for k, v in value.items()}
    return value


def apply_action(hand: PanHand, action: dict[str, Any]) -> None:
    kind = action.get("type")
    if kind not in ACTIONS:
        raise PanRuleError("hand history", f"unknown action {kind!r}")
    if kind == "reshuffle_stock" and HIDDEN_CARD in (action.get("order") or []):
        pile = [d.card for d in hand.discards[:-1]]
        action = {**action, "order": [str(c) for c in with_hidden_filled(
            action["order"], pile, "reshuffled stock")]}
    kwargs = action_arguments(action)
    try:
        getattr(hand, kind)(**kwargs)
    except TypeError as exc:
        raise PanRuleError("hand history", f"bad arguments for {kind}: {exc}") from None


class Replay(GameReplay[None]):
    """Every recorded action applied through `PanHand` (the movements are its `ChipsMoved`
    events). A voided hand ends in the void action (`cardroom.history.VOID`: every stack as
    before the hand); the room writes it with no pack (`room.hands.void_history`: no card
    of the hand shown), a history with its pack as recorded replays its actions first."""

    game = "pan"
    unit = "chips"
    house = "tops"
    errors = (CardroomError,)

    def __init__(self, h: HandHistory) -> None:
        super().__init__(h)
        self.hand: PanHand | None = None
        if h.pack:
            self.hand = start_hand(h)
            self.names = [s.name for s in self.hand.seats.values()]
            self.start = [s.start_chips for s in self.hand.seats.values()]
        else:  # a voided hand's record: the seats only
            build_rules(PanRules, h.rules, "history rules")
            self.read_seats(h, "seat")

    def apply(self, index: int, action: dict[str, Any]) -> None:
        if self.hand is None:
            raise HistoryError("a Pan history with no pack holds only the void")
        mark = len(self.hand.events)
        apply_action(self.hand, action)
        self.movements += [{"index": index, "payer": ev.payer, "payee": ev.payee,
                            "chips": ev.chips, "reason": ev.reason}
                           for ev in self.hand.events[mark:] if isinstance(ev, ChipsMoved)]

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
