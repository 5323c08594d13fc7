"""Computer players. Both only ever act through the engine's actions, so neither can break a
rule; the sound bot plays Pan, the random one picks any legal action. A move a bot takes from
the engine's own lists of legal moves (`PanHand.card_uses`, `hand_uses`, `legal_discards`, or
a `can_x` just asked) is applied `unchecked`: the engine would only check it again.

The sound bot: plays or passes from the hand's prospects (cards already in melds or one card
from one), melds the drawn card when it can (conditions first), melds every hand card it can
(`hand_uses`, borrowing included, the best-paying use first), discards the legal card with
the fewest connections (keeping valles and pairs, the flexible holdings), and forces a card
back when that makes an opponent break a holding without paying him anything.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import combinations
from typing import Any, Protocol

from cardroom.cards import Card
from cardroom.engine import unchecked

from .cards import ORDER, VALLE_RANKS, card_key
from .engine import PanHand
from .melds import addition_units, lay_down_units, meld_kind, triple_ok
from .state import IN, PLAYING, SELF_FOULED
from .uses import Use


class Bot(Protocol):
    def declare(self, hand: PanHand, seat: int) -> None: ...

    def start(self, hand: PanHand, seat: int) -> None:
        """Take the previous player's card or draw (the turn's first action)."""

    def finish(self, hand: PanHand, seat: int) -> None:
        """The rest of the turn: meld, collect, discard or go out."""

    def react(self, hand: PanHand, seat: int) -> None:
        """Another player's discard is down: force it back or not."""

    def forced_discard(self, hand: PanHand, seat: int) -> None:
        """A card was forced back onto this seat's spread: discard again from the hand."""

    def react_option(self, hand: PanHand, seat: int) -> None:
        """Another player just drew past an option card: force it (rule 12) or not."""

    def answer_split(self, hand: PanHand, seat: int) -> bool:
        """The other player offers to split the tops (pays rule 2): agree or refuse."""

    def agree_settlement(self, hand: PanHand, seat: int, chips: int) -> bool:
        """This foul hand is asked to pay `chips` in a settlement (foul rule 5A)."""


Bots = Mapping[int, Bot | None] | Sequence[Bot | None]
"""The players of a hand by seat number (`bots[seat]`: a bot, or None for a person): a
mapping of the table's seats, or a list where the seats are numbered 0, 1, 2..."""


def foul_liability(hand: PanHand, winner: int, seat: int) -> int:
    """What foul hand `seat` would pay if `winner` went out now (foul rule 1B, pays rule 5)."""
    s = hand.seats[seat]
    outs = s.pays_outs_when_fouled or s.status is SELF_FOULED  # rules 3F and 2
    due = hand.rules.outs_chips if outs else s.foul_value + 2
    return min(due, hand.seats[winner].chips, s.chips)


def tallies(cards: list[Card]) -> tuple[Counter[int], Counter[int]]:
    """The cards' ranks, and each as 16 * suit + Pan order, counted: what `links` reads."""
    return (Counter(c.rank for c in cards),
            Counter(16 * (c.suit or 0) + ORDER[c.rank] for c in cards))


def links(card: Card, ranks: Counter[int], suited: Counter[int]) -> int:
    """How many of the cards (`tallies`, the card itself among them, so counted once) could
    meld with this one: its rank's count, and its suit's cards one or two away in Pan order.
    The one count of a card's partners: `prospects`, the discard and forcing back read it."""
    k = 16 * (card.suit or 0) + ORDER[card.rank]
    return ranks[card.rank] + suited[k - 2] + suited[k - 1] + suited[k + 1] + suited[k + 2]


def prospects(cards: list[Card]) -> int:
    """Cards in a meld or with at least one partner: the hand's prospects."""
    ranks, suited = tallies(cards)
    return sum(1 for c in cards if links(c, ranks, suited) > 1)


def hand_melds(cards: list[Card]) -> list[tuple[Card, ...]]:
    """Three-card melds in a hand."""
    return [t for t in combinations(cards, 3) if triple_ok(*t)]


def _use_value(hand: PanHand, seat: int, card: Card, use: Use) -> int:
    s = hand.seats[seat]
    rules = hand.rules
    if use[0] == "lay_off":
        m = s.melds[use[1]]
        assert m.kind is not None
        return 10 * addition_units(m.cards, (*m.cards, card), m.kind, rules) + 3
    if use[0] == "meld":
        allc = (card, *use[1])
        kind = meld_kind(allc)
        assert kind is not None
        return 10 * lay_down_units(allc, kind, rules) + 2
    allc = (card, *use[2], *use[3])
    kind = meld_kind(allc)
    assert kind is not None
    return 10 * lay_down_units(allc, kind, rules) + 1


def apply_use(hand: PanHand, seat: int, card: Card, use: Use, drawn: bool) -> None:
    """Meld `card` (the drawn card, or a hand card) by `use`, one of the legal uses the
    engine listed in this state (`PanHand.card_uses`, `PanHand.hand_uses`): unchecked."""
    if use[0] == "lay_off":
        unchecked(hand.lay_off, seat, use[1], None if drawn else card)
    elif use[0] == "meld":
        unchecked(hand.meld, seat, use[1] if drawn else (card, *use[1]), use_drawn=drawn)
    else:
        unchecked(hand.borrow, seat, use[1], use[2], use[3] if drawn else (card, *use[3]),
                  use_drawn=drawn)


def discard_legal(hand: PanHand, seat: int, card: Card, legal: list[Card]) -> None:
    """Discard `card`: unchecked when it is among the engine's `legal` discards, else checked
    (a discard the rules refuse raises, as it always did)."""
    if card in legal:
        unchecked(hand.discard, seat, card)
    else:
        hand.discard(seat, card)


class SoundBot:
    """A sound Pan player (see the module docstring)."""

    def __init__(self, play_threshold: int = 6) -> None:
        self.play_threshold = play_threshold

    def declare(self, hand: PanHand, seat: int) -> None:
        cards = hand.seats[seat].hand
        play = prospects(cards) >= self.play_threshold or bool(hand_melds(cards))
        if not play and hand.can_declare(seat, False):
            unchecked(hand.declare, seat, False)
            return
        hand.declare(seat, True)

    def start(self, hand: PanHand, seat: int) -> None:
        if hand.tops_waiting() and hand.can_take_tops(seat):  # no tops waiting: no taking
            unchecked(hand.take_tops, seat)
            return
        opt = hand.option_card()
        if opt is not None:
            uses = hand.card_uses(seat, opt.card)
            if uses and (any(u[0] == "lay_off" for u in uses)
                         or any(_use_value(hand, seat, opt.card, u) >= 10 for u in uses)) \
                    and hand.can_take(seat):
                unchecked(hand.take, seat)
                return
        hand.draw(seat)

    def finish(self, hand: PanHand, seat: int) -> None:
        s = hand.seats[seat]
        card = hand.drawn
        uses = hand.card_uses(seat, card) if card is not None else []
        if card is not None and uses:
            best = uses[0] if len(uses) == 1 else \
                max(uses, key=lambda u: _use_value(hand, seat, card, u))
            apply_use(hand, seat, card, best, drawn=True)
        if hand.drawn is None:
            self._meld_hand(hand, seat)
        if s.pending:
            hand.collect(seat)
        if hand.phase is not PLAYING or s.status is not IN:
            return
        if not s.hand and hand.drawn is None and hand.can_go_out(seat):
            unchecked(hand.go_out, seat)
            return
        if hand.drawn is not None:
            discard_legal(hand, seat, hand.drawn, hand.legal_discards(seat))
            return
        self._discard(hand, seat)

    def _meld_hand(self, hand: PanHand, seat: int) -> None:
        """Meld every hand card that can be melded (`hand_uses`: lay-offs, hand melds,
        borrowing), the best-paying use first, until none can (foul rule 5B asks no less)."""
        while uses := hand.hand_uses(seat):
            card, use = uses[0] if len(uses) == 1 else \
                max(uses, key=lambda cu: _use_value(hand, seat, *cu))
            apply_use(hand, seat, card, use, drawn=False)

    def choose_discard(self, hand: PanHand, seat: int,
                       legal: list[Card] | None = None) -> Card:
        """The legal discard (`legal_discards`, unless given) with the fewest connections;
        among equals the one first in the hand."""
        ranks, suited = tallies(hand.seats[seat].hand)
        best = None
        for c in hand.legal_discards(seat) if legal is None else legal:
            conn = links(c, ranks, suited) - 1  # the others: every card but this one
            key = (conn, c.rank in VALLE_RANKS, -ORDER[c.rank])
            if best is None or key < best[0]:
                best = (key, c)
        assert best is not None
        return best[1]

    def _discard(self, hand: PanHand, seat: int) -> None:
        legal = hand.legal_discards(seat)
        discard_legal(hand, seat, self.choose_discard(hand, seat, legal), legal)

    def react(self, hand: PanHand, seat: int) -> None:
        """Force the last discard back when it makes its discarder break a holding and pays
        him nothing (rule 13). A card that puts him out (`goes_out_with`, borrowing
        included) is forced back only under rule 14A, to end a pyramid attempt at the lower
        rate, and only when no card would put this bot out: a bot waiting to go out itself
        races him instead of handing him the hand."""
        if not hand.discards:
            return
        d = hand.discards[-1]
        target = d.seat
        t = hand.seats[target]
        if target == seat or t.status is not IN:
            return
        if hand.goes_out_with(target, d.card):
            if not self.waiting(hand, seat) and hand.can_force_back(seat, target):
                unchecked(hand.force_back, seat, target)
            return
        if len(t.hand) < 3:
            return
        fitting = [t.melds[mi] for mi in hand.fitting_melds(target, d.card)]
        if not fitting or any(addition_units(m.cards, (*m.cards, d.card), m.kind, hand.rules)
                              for m in fitting if m.kind is not None):
            return
        # every card of his hand has a partner other than its own copies (a dealt pack's
        # copies of a card are one object, which the identity test this replaces skipped)
        ranks, suited = tallies(t.hand)
        copies = Counter(card_key(c) for c in t.hand)
        if all(links(c, ranks, suited) > copies[card_key(c)] for c in t.hand) \
                and hand.can_force_back(seat, target):
            unchecked(hand.force_back, seat, target)

    @staticmethod
    def waiting(hand: PanHand, seat: int) -> bool:
        """Would some card of the pack put `seat` out (`goes_out_with`)?"""
        return any(hand.goes_out_with(seat, card) for card in dict.fromkeys(hand.pack))

    def forced_discard(self, hand: PanHand, seat: int) -> None:
        self._discard(hand, seat)

    def react_option(self, hand: PanHand, seat: int) -> None:
        """Rule 12, when it pays: force the player who drew past the option card to use it when
        the lay-off pays him nothing, does not put him out, and costs him a drawn card he could
        have used (it goes back on the stock). Otherwise leave him to his draw."""
        cur = hand.current
        card = hand.drawn
        top = hand.option_card()
        if cur is None or card is None or top is None or not hand.can_force_option_card(seat, True):
            return
        if hand.goes_out_with(cur, top.card) or not hand.card_uses(cur, card):
            return
        for mi in hand.fitting_melds(cur, top.card):
            m = hand.seats[cur].melds[mi]
            if m.kind is None or addition_units(m.cards, (*m.cards, top.card), m.kind, hand.rules):
                return
        unchecked(hand.force_option_card, seat, True)

    def answer_split(self, hand: PanHand, seat: int) -> bool:
        """Split when the other player is at least as close to going out (as many cards down)."""
        other = next(i for i in hand.in_players() if i != seat)
        return hand.seats[other].melded_count >= hand.seats[seat].melded_count

    def agree_settlement(self, hand: PanHand, seat: int, chips: int) -> bool:
        """Agree to pay no more than the foul hand would pay if the hand were played out."""
        assert hand.current is not None
        return chips <= foul_liability(hand, hand.current, seat)


class RandomBot:
    """Picks uniformly among legal actions (collections always called, out always taken)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def declare(self, hand: PanHand, seat: int) -> None:
        play = self.rng.random() < 0.5
        if hand.can_declare(seat, play):
            unchecked(hand.declare, seat, play)
        else:
            hand.declare(seat, not play)

    def start(self, hand: PanHand, seat: int) -> None:
        if hand.can_take_tops(seat):
            unchecked(hand.take_tops, seat)
        elif hand.can_take(seat) and self.rng.random() < 0.5:
            unchecked(hand.take, seat)
        else:
            hand.draw(seat)

    def finish(self, hand: PanHand, seat: int) -> None:
        s = hand.seats[seat]
        card = hand.drawn
        pick: Any = ("use",)
        if card is not None:
            choices: list[Any] = list(hand.card_uses(seat, card))
            legal = hand.legal_discards(seat)  # the drawn card, or none
            if legal:
                choices.append(("discard",))
            pick = self.rng.choice(choices)
            if pick[0] == "discard":
                discard_legal(hand, seat, card, legal)
                return
            apply_use(hand, seat, card, pick, drawn=True)
        while s.hand:
            opts: list[Any] = [("use", *cu) for cu in hand.hand_uses(seat)]
            opts.extend(("discard", c) for c in hand.legal_discards(seat))
            pick = self.rng.choice(opts)
            if pick[0] == "discard":
                break
            apply_use(hand, seat, pick[1], pick[2], drawn=False)
        if s.pending:
            hand.collect(seat)
        if hand.phase is not PLAYING:
            return
        if hand.can_go_out(seat):
            unchecked(hand.go_out, seat)
            return
        hand.discard(seat, pick[1] if pick[0] == "discard" else s.hand[0])

    def react(self, hand: PanHand, seat: int) -> None:
        return

    def forced_discard(self, hand: PanHand, seat: int) -> None:
        legal = hand.legal_discards(seat)
        discard_legal(hand, seat, self.rng.choice(
            [c for c in hand.seats[seat].hand if c in legal]), legal)

    def react_option(self, hand: PanHand, seat: int) -> None:
        return

    def answer_split(self, hand: PanHand, seat: int) -> bool:
        return self.rng.random() < 0.5

    def agree_settlement(self, hand: PanHand, seat: int, chips: int) -> bool:
        return self.rng.random() < 0.5
