"""Pan hand histories: writing one for a hand (`history_of`), and the table after each
action of one (`boards`, the recall's steps); replaying one is `cardroom.games.pan.replay`.

The engine knows a seat by its table seat number; a history names a seat by its place in the
hand, 0 for the lowest seat number dealt in, 1 for the next... (the history format, as it has
always been). The two meet here only: `history_of` and `recorded` write places, `at_seats`
replays a history with its places numbered as the table's seats again."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardroom.errors import CardroomError
from cardroom.history import HIDDEN_CARD, HandHistory

from .engine import PanHand
from .replay import Replay, apply_recorded

SEAT_ARGS = ("seat", "forcer", "caller")
"""The recorded actions' arguments that name a seat (a settlement's `payments` are keyed by
seat too)."""


def _seats_in(act: dict[str, Any], seat: Callable[[int], int]) -> dict[str, Any]:
    """`act` with every seat it names renamed by `seat`."""
    out = {k: seat(v) if k in SEAT_ARGS and v is not None else v for k, v in act.items()}
    if "payments" in act:
        out["payments"] = {str(seat(int(k))): v for k, v in act["payments"].items()}
    return out


def recorded(hand: PanHand, act: dict[str, Any]) -> dict[str, Any]:
    """One of `hand.actions` as its history records it (seats by their place in the hand)."""
    return _seats_in(act, hand.place.__getitem__)


def history_of(hand: PanHand, hand_id: str = "", whole: bool = False) -> HandHistory:
    """The hand's history: shuffled pack, seats and chips, house rules, actions in order.
    Every card still unseen in the stock, of the pack or of a reshuffled stock, is written
    `HIDDEN_CARD`: the history shows what was seen, never the order of what a later turn or
    deal may take (the next pack may begin with this stock, docs/pan.md). `whole`: every
    card as it lies, the stock's order too (the sealed record a restart resumes the hand
    from, `cardroom.room.play.resume`: never shown)."""
    unseen = set() if whole else hand.unseen_cards()
    actions: list[dict[str, Any]] = []
    reshuffles = 0
    for act in (recorded(hand, a) for a in hand.actions):
        if act["type"] == "reshuffle_stock" and act["order"]:
            reshuffles += 1
            act = {**act, "order": _hide(act["order"], reshuffles, unseen)}
        actions.append(act)
    return HandHistory(
        game="pan", hand_id=hand_id, rules=hand.rules.model_dump(mode="json"),
        seats=[{"seat": i, "name": s.name, "chips": s.chips, "doubles": s.doubles}
               for i, s in enumerate(hand.specs)],
        pack=_hide([str(c) for c in hand.pack], 0, unseen),
        setup={"dealer": hand.place[hand.dealer], "deal_counts": list(hand.deal_counts)
               if hand.deal_counts is not None else None,
               "carried_tops": list(hand.carried_tops)},
        actions=actions,
        result={"chips": [s.chips for s in hand.seats.values()],
                "winner": None if hand.winner is None else hand.place[hand.winner],
                "reason": hand.end_reason},
    )


def at_seats(h: HandHistory, numbers: Sequence[int]) -> PanHand:
    """The hand `h` records replayed with the table's seat numbers (`numbers`, one for each
    of its seats in their order, lowest first): the room takes a hand back from its sealed
    record so (`cardroom.room.play.resume`)."""
    placed = Replay(h).hand
    assert placed is not None, "a history with its pack"
    hand = PanHand(placed.rules, dict(zip(numbers, placed.specs, strict=True)),
                   numbers[placed.place[placed.dealer]], placed.pack, placed.deal_counts,
                   placed.carried_tops)
    for act in h.actions:
        apply_recorded(hand, _seats_in(act, numbers.__getitem__))
    return hand


def _hide(cards: list[str], source: int, unseen: set[tuple[int, int]]) -> list[str]:
    return [HIDDEN_CARD if (source, i) in unseen else c for i, c in enumerate(cards)]


def boards(h: HandHistory, viewer: int | None = None, everything: bool = True
           ) -> list[dict[str, Any]]:
    """The table after each action of `h` (the recall's steps), as far as it replays: every
    seat's hand (as seat `viewer` saw it at the table, by the engine's own `snapshot`: his
    own hand, others' only when played face up; `everything`: every hand, for the floor and
    the auditor), its count and spreads, the drawn card, the top discard and how many cards
    the stock holds; the stock's unseen cards are only counted. A history with no pack (a
    voided hand's record) has no table to show."""
    if not h.pack:
        return []
    replay = Replay(h)
    hand, out = replay.hand, []
    assert hand is not None
    for i, act in enumerate(h.actions):
        try:
            replay.apply(i, act)
        except CardroomError:
            break
        seen = [True] * hand.n if everything else \
            [s["hand"] is not None for s in hand.snapshot(viewer)["seats"]]
        out.append({"seats": [{"hand": [str(c) for c in s.hand] if shown else None,
                               "hand_count": len(s.hand),
                               "melds": [[str(c) for c in m.cards] for m in s.melds],
                               "status": s.status.value, "chips": s.chips}
                              for s, shown in zip(hand.seats.values(), seen, strict=True)],
                    "drawn": str(hand.drawn) if hand.drawn else None,
                    "discard": str(hand.discards[-1].card) if hand.discards else None,
                    "stock": len(hand.stock)})
    return out
