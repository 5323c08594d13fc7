"""What players may ask: spread values, the option card, the uses of a card, out cards, and
the snapshot each viewer may see (hidden cards stay hidden)."""

from __future__ import annotations

from typing import Any

from cardroom.cards import Card

from .base import HandBase
from .melds import fits, meld_value
from .outs import OutPlan, best_out
from .rules import HAND_SIZE
from .state import IN, DiscardEntry
from .uses import Use, card_uses, has_partners, screen


class QueriesMixin(HandBase):
    """Read-only questions about the hand; none changes it."""

    # ----- queries used by the bots and the interfaces ---------------------------------------

    def spread_value(self, seat: int) -> int:
        """House pays rule 4: the value of a player's spreads (units), as they lie."""
        return sum(meld_value(m.cards, m.kind, self.rules)
                   for m in self.seats[seat].melds if m.kind is not None)

    def option_card(self) -> DiscardEntry | None:
        """The previous player's unused stock card (the top of the discards), if any."""
        if not self.discards or self.current is None:
            return None
        top = self.discards[-1]
        if not top.from_stock or top.seat != self.last_discarder:
            return None
        return top

    def fitting_melds(self, seat: int, card: Card) -> list[int]:
        """The seat's valid melds that `card` may be added to."""
        strict = self.rules.strict_set_additions
        return [i for i, m in enumerate(self.seats[seat].melds)
                if m.kind is not None and fits(m.cards, m.kind, card, strict)]

    def card_uses(self, seat: int, card: Card) -> list[Use]:
        """Every way `seat` can meld `card` at once (`uses.card_uses`): the take (a turn, 1),
        the option card (rule 12) and rule 17 rely on it."""
        s = self.seats[seat]
        return card_uses(card, s.hand, [(m.cards, m.kind) for m in s.melds],
                         self.rules.strict_set_additions)

    def hand_uses(self, seat: int) -> list[tuple[Card, Use]]:
        """Every card in the seat's hand with each way to meld it now (`uses.card_uses` with
        the rest of his hand): what foul rule 5B's face-up hand must use before discarding,
        and what the bots meld from the hand. A card with no partner on his table has none
        and is not searched (`uses.screen`)."""
        s = self.seats[seat]
        melds = [(m.cards, m.kind) for m in s.melds]
        strict = self.rules.strict_set_additions
        out: list[tuple[Card, Use]] = []
        hand = s.hand
        table = screen(hand, melds)
        seen: set[int] = set()
        ranks, suited = table or ([], set())
        for i, card in enumerate(hand):  # each card once, as it first lies in the hand
            k = card.rank * 4 + (card.suit or 0)  # card_key, inline: the hot path
            if k in seen:
                continue
            seen.add(k)
            if table is None or has_partners(card, ranks, suited):
                out += [(card, u) for u in card_uses(card, hand[:i] + hand[i + 1:], melds,
                                                     strict)]
        return out

    def out_plan(self, seat: int, card: Card) -> OutPlan | None:
        """How `card` puts `seat` out, if it does (`outs.best_out`): the one answer to "does
        this card put this player out" for rules 12, 14 (A, B, C) and 17. He must be in with
        a correct count and valid melds, and the card and every card in his hand must meld
        at once (lay-offs, hand melds, borrowing)."""
        s = self.seats[seat]
        if s.status is not IN:
            return None
        count = len(s.hand)
        spread = []
        for m in s.melds:  # one pass: every meld valid, the count, the spread
            if m.kind is None:
                return None
            count += len(m.cards)
            spread.append((m.cards, m.kind))
        if count != HAND_SIZE:
            return None
        return best_out(card, s.hand, spread, self.rules)

    def goes_out_with(self, seat: int, card: Card) -> bool:
        """Would `card` put `seat` out (`out_plan`)?"""
        return self.out_plan(seat, card) is not None

    def out_value(self, seat: int, card: Card) -> int:
        """Chips per player for going out with `card`: the outs plus what melding the card
        (and the rest of his hand) pays, laid as it pays most (rule 14B compares them)."""
        plan = self.out_plan(seat, card)
        assert plan is not None, "not an out card"
        return self.rules.outs_chips + plan.units

    def snapshot(self, viewer: int | None) -> dict[str, Any]:
        """What `viewer` may see: his own hand, everyone's melds, the exposed drawn card, the
        top discard and counts; other hands only when played face up (foul rule 5B)."""
        seats = []
        for i, s in self.seats.items():
            show = i == viewer or (self.face_up and s.status is IN)
            seats.append({
                "seat": i, "name": s.name, "chips": s.chips, "doubles": s.doubles,
                "status": s.status.value, "declared": s.declared,
                "hand": [str(c) for c in s.hand] if show else None,
                "hand_count": len(s.hand),
                "melds": [[str(c) for c in m.cards] for m in s.melds],
                "spread_value": self.spread_value(i),
            })
        return {
            "phase": self.phase.value, "current": self.current, "dealer": self.dealer,
            "first_hand": self.first_hand,
            "drawn": str(self.drawn) if self.drawn else None,
            "top_discard": str(self.discards[-1].card) if self.discards else None,
            "stock": len(self.stock), "tops": self.tops_single, "double_tops": self.tops_double,
            "seats": seats,
        }
