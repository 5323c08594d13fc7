"""One coup of Mini-Baccarat as a state machine fed by the shoe.

Cards are dealt player, banker, player, banker, then the third cards the tableau calls for.
Each card is an immutable event in the coup's log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from cardroom.cards import Card, Rank
from cardroom.engine import Event
from cardroom.errors import IllegalActionError
from cardroom.games.baccarat.tableau import Tableau, standard_tableau


class Hand(StrEnum):
    PLAYER = "player"
    BANKER = "banker"


class Winner(StrEnum):
    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"


def card_value(card: Card) -> int:
    """Pictures and tens count 0, aces 1, other cards their face value."""
    if card.is_joker:
        raise IllegalActionError("there is no joker in a baccarat shoe")
    return 0 if card.rank >= Rank.TEN else int(card.rank)


def hand_total(cards: tuple[Card, ...]) -> int:
    """Sum of the values, 10 subtracted while 10 or more: the last digit."""
    return sum(card_value(c) for c in cards) % 10


def next_to_draw(tableau: Tableau, player: Sequence[int], banker: Sequence[int]) -> Hand | None:
    """Who gets the next card, from the values dealt so far; None once the coup is complete.

    The coup's flow, written once (mini-baccarat/two-hands): player, banker, player, banker,
    then the player's third card and the banker's as the tableau calls for them. The engine
    (`Coup`) and the exact count (`analysis.baccarat.count_coups`) both walk it."""
    n_p, n_b = len(player), len(banker)
    if n_p + n_b < 4:
        return Hand.PLAYER if n_p == n_b else Hand.BANKER
    p2, b2 = sum(player[:2]) % 10, sum(banker[:2]) % 10
    if tableau.is_natural(p2) or tableau.is_natural(b2):
        return None
    player_drew = tableau.player_draws(p2)
    if player_drew and n_p == 2:
        return Hand.PLAYER
    if n_b == 3:
        return None
    return Hand.BANKER if tableau.banker_draws(b2, player[2] if player_drew else None) else None


@dataclass(frozen=True)
class CardDealt(Event):
    clause: ClassVar[str] = "mini-baccarat/two-hands (two cards each, a third by the tableau)"
    index: int
    hand: Hand
    card: Card

    def dealt(self) -> tuple[Card, ...]:
        return (self.card,)


@dataclass
class Coup:
    """A coup in progress; `next_hand()` says who gets the next card, None once complete."""

    tableau: Tableau = field(default_factory=standard_tableau)
    player: tuple[Card, ...] = ()
    banker: tuple[Card, ...] = ()
    events: list[CardDealt] = field(default_factory=list)

    def next_hand(self) -> Hand | None:
        return next_to_draw(self.tableau, [card_value(c) for c in self.player],
                            [card_value(c) for c in self.banker])

    @property
    def complete(self) -> bool:
        return self.next_hand() is None

    def verify_deal(self) -> Hand:
        hand = self.next_hand()
        if hand is None:
            raise IllegalActionError("the coup is complete: no more cards are dealt")
        return hand

    def can_deal(self) -> bool:
        return self.next_hand() is not None

    def deal(self, card: Card) -> CardDealt:
        hand = self.verify_deal()
        card_value(card)
        if hand is Hand.PLAYER:
            self.player = (*self.player, card)
        else:
            self.banker = (*self.banker, card)
        event = CardDealt(len(self.events), hand, card)
        self.events.append(event)
        return event

    def result(self) -> CoupResult:
        if not self.complete:
            raise IllegalActionError("the coup is not complete yet")
        return CoupResult(self.player, self.banker)


@dataclass(frozen=True)
class CoupResult:
    player: tuple[Card, ...]
    banker: tuple[Card, ...]

    @property
    def player_total(self) -> int:
        return hand_total(self.player)

    @property
    def banker_total(self) -> int:
        return hand_total(self.banker)

    @property
    def winner(self) -> Winner:
        p, b = self.player_total, self.banker_total
        if p == b:
            return Winner.TIE
        return Winner.PLAYER if p > b else Winner.BANKER


def play_coup(draw: Callable[[], Card], tableau: Tableau | None = None) -> CoupResult:
    """Deal a whole coup from `draw` (e.g. `Shoe.draw`)."""
    coup = Coup(tableau or standard_tableau())
    while coup.can_deal():
        coup.deal(draw())
    return coup.result()
