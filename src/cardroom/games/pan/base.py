"""The hand's state and bookkeeping: the tops and the deal, the seats by their table seat
numbers and the order of play, chip moves, and the `action` decorator that records every
top-level action for the hand history."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from cardroom.cards import Card
from cardroom.engine import Engine

from . import errors as R
from .errors import PanRuleError
from .events import ChipsMoved, Dealt, Event, ToppedUp
from .rules import HAND_SIZE, MAX_SEATS, MIN_SEATS, PanRules
from .state import (
    COMPLETE,
    DEAD,
    DECLARING,
    IN,
    PASSED,
    PLAYING,
    SELF_FOULED,
    DiscardEntry,
    SeatSpec,
    SeatState,
    check,
    take_cards,
)


def numbered(seats: Sequence[SeatSpec] | Mapping[int, SeatSpec]) -> dict[int, SeatSpec]:
    """The seats by their table seat numbers, lowest first: a mapping as given (seat number
    -> spec), a list numbered 0, 1, 2... in its order."""
    if isinstance(seats, Mapping):
        return dict(sorted(seats.items()))
    return dict(enumerate(seats))


def check_seating(rules: PanRules, seats: Mapping[int, SeatSpec], dealer: int,
                  counts: Sequence[int], pack_size: int) -> None:
    """Refuse a hand the rules do not allow before anything is dealt: the seat count, the
    dealer's seat, every seat's chips (a double condition player's twice the buy-in), and a
    deal the pack can give."""
    n = len(seats)
    if not (MIN_SEATS <= n <= MAX_SEATS):
        raise PanRuleError(
            R.ROTATION,
            f"a Pan table seats {MIN_SEATS} to {MAX_SEATS} players, not {n}")
    if not (isinstance(dealer, int) and dealer in seats):
        raise PanRuleError(R.ROTATION, f"no seat {dealer} to deal")
    for i, spec in seats.items():
        if not (spec.chips >= 1):
            raise PanRuleError(
                R.PAYS_5,
                f"seat {i} has no chips: a player may not play for the tops when out of chips")
        check(not spec.doubles or rules.allow_double_condition, R.DOUBLES,
              "this room plays straight condition: no doubles players")
        if spec.doubles and spec.chips < 2 * rules.buy_in_chips:
            raise PanRuleError(
                R.DOUBLES,
                f"seat {i} has {spec.chips} chips: a double condition player must have "
                f"twice the minimum buy-in ({2 * rules.buy_in_chips} chips)")
    check(len(counts) == n and all(0 <= c <= 20 for c in counts), R.ROTATION,
          "deal counts must give each seat 0 to 20 cards")
    check(sum(counts) < pack_size, R.ROTATION, "the pack is too small for this deal")


class HandBase(Engine):
    """The state of one hand and the helpers every rule module uses. A seat is known by its
    table seat number (`seats`: a mapping of them, or a list numbered 0, 1, 2...); play goes
    to the right, from the lowest number up and round (`ring`), and `order` is the order of
    play of this hand, from the first hand round to the dealer. `dealer` is a seat number;
    `deal_counts` (a seat's cards when the dealer misdealt: tests and foul rule 8) follow
    `ring`."""

    def __init__(self, rules: PanRules, seats: Sequence[SeatSpec] | Mapping[int, SeatSpec],
                 dealer: int, pack: Sequence[Card], deal_counts: Sequence[int] | None = None,
                 carried_tops: tuple[int, int] = (0, 0), record: bool = True) -> None:
        by_number = numbered(seats)
        n = len(by_number)
        counts = list(deal_counts) if deal_counts is not None else [HAND_SIZE] * n
        check_seating(rules, by_number, dealer, counts, len(pack))
        self.rules = rules
        self.record = record  # False: no action log (simulation); events are always kept
        self.pack = tuple(pack)
        self.deal_counts = tuple(deal_counts) if deal_counts is not None else None
        self.carried_tops = carried_tops
        self.ring = tuple(by_number)
        """Every seat number, lowest first: the order of play round the table."""
        self.place = {seat: i for i, seat in enumerate(self.ring)}
        """Each seat's place in `ring` (the hand history's seat index)."""
        self.after = {seat: self.ring[i + 1:] + self.ring[:i + 1]
                      for i, seat in enumerate(self.ring)}
        """The seats after each one, to the right, round to itself."""
        self.specs = tuple(by_number.values())
        self.n = n
        self.dealer = dealer
        self.first_hand = self.ring[(self.place[dealer] + 1) % n]
        self.seats = {seat: SeatState(s.name, s.chips, s.doubles, start_chips=s.chips)
                      for seat, s in by_number.items()}
        self.events: list[Event] = []
        self.actions: list[dict[str, Any]] = []
        self._depth = 0
        self.tops_single = carried_tops[0]
        self.tops_double = carried_tops[1]
        self.double_contrib: Counter[int] = Counter()
        self.single_contrib: Counter[int] = Counter()
        self.phase = DECLARING
        self.order = list(self.after[dealer])
        self.next_declarer = 0
        self.current: int | None = None
        self.drawn: Card | None = None
        self.drawn_kind: str | None = None
        self.turn_started = False
        self.turn_actions = 0
        self.option_resolved = False
        self.first_draw_done = False
        self.discards: list[DiscardEntry] = []
        self._live: list[DiscardEntry] = []  # discards that may still be forced back
        self.floor: list[Card] = []
        self.forced_discard: int | None = None
        self.false_out: int | None = None
        self.split_offer: int | None = None
        self.face_up = False
        self.winner: int | None = None
        self.end_reason: str | None = None
        self.tops_carry: tuple[int, int] = (0, 0)
        self.last_discarder: int | None = None
        self._take_tops()
        self._deal(list(pack), counts)

    def _take_tops(self) -> None:
        """Every seat antes one chip to the tops (a double condition player one more, kept
        apart for the doubles' tops)."""
        for i, s in self.seats.items():
            double = 1 if s.doubles and s.chips >= 2 else 0
            s.chips -= 1 + double
            self.tops_single += 1
            self.single_contrib[i] += 1
            self.tops_double += double
            self.double_contrib[i] += double
            self._log(ToppedUp(i, 1, double))

    def _deal(self, cards: list[Card], counts: Sequence[int]) -> None:
        """The deal: to the right from the first hand, two rounds of five; the rest is the
        stock."""
        pos = 0
        for rnd in range(2):
            for i in self.order:
                count = counts[self.place[i]]
                k = min(5, count) if rnd == 0 else count - min(5, count)
                self.seats[i].hand.extend(cards[pos:pos + k])
                pos += k
        self.stock = cards[pos:][::-1]  # the top of the stock is the end of the list
        self.stock_origin: list[tuple[int, int] | None] = [
            (0, i) for i in range(len(cards) - 1, pos - 1, -1)]
        """Beside each stock card: where it lies unseen, (0, i) for the pack's card i, (r, k)
        for card k of the r-th reshuffled stock; `None` for a card someone has seen (one put
        back). The history hides the cards still unseen (`unseen_cards`)."""
        self.reshuffles = 0
        self._log(Dealt(self.dealer, self.first_hand, tuple(counts)))

    # ----- the stock ----------------------------------------------------------------------

    def _check_holds(self, seat: int, cards: Sequence[Card], clause: str) -> None:
        """Refuse, under `clause`, unless the seat's hand holds `cards`."""
        if take_cards(self.seats[seat].hand, cards) is None:
            raise PanRuleError(clause, f"seat {seat} does not hold {' '.join(map(str, cards))}")

    def _clear_false_out(self) -> None:
        """A false declaration of going out is over: no one stands thrown in after it."""
        self.false_out = None
        for x in self.seats.values():
            x.threw_in = False

    def _from_stock(self, index: int = -1) -> Card:
        """Take a card from the stock (its top unless told): from now on it has been seen."""
        self.stock_origin.pop(index)
        return self.stock.pop(index)

    def _to_stock(self, cards: Sequence[Card], bottom: bool) -> None:
        """Seen cards go back into the stock (its top card first, or at its bottom)."""
        if bottom:
            self.stock[:0] = cards
            self.stock_origin[:0] = [None] * len(cards)
        else:
            self.stock.extend(cards)
            self.stock_origin.extend([None] * len(cards))

    def _new_stock(self, order: Sequence[Card]) -> None:
        """The reshuffled discards (`order`, top first) are the stock, none of it seen."""
        self.reshuffles += 1
        self.stock = list(order)[::-1]
        self.stock_origin = [(self.reshuffles, k) for k in range(len(order) - 1, -1, -1)]

    def unseen_cards(self) -> set[tuple[int, int]]:
        """Every card no one has seen and that still lies in the stock, as (0, pack index) or
        (reshuffle number, index in its order). Their order is due in a later turn or a later
        deal, so no record may show it."""
        return {o for o in self.stock_origin if o is not None}

    # ----- small helpers ------------------------------------------------------------------

    def _seat(self, seat: int) -> SeatState:
        found = self.seats.get(seat) if isinstance(seat, int) else None
        if found is None:
            raise PanRuleError(R.ROTATION, f"no seat {seat}")
        return found

    def _open(self) -> None:
        check(self.phase is not COMPLETE, R.PAN_1,
              "the hand is out of play: no decision can be made on it")

    def names(self) -> dict[int, str]:
        """Each seat's player, by seat number."""
        return {i: s.name for i, s in self.seats.items()}

    def in_players(self) -> list[int]:
        return [i for i, s in self.seats.items() if s.status is IN]

    @property
    def to_act(self) -> int | None:
        """The seat the hand waits for: the next to declare, a player who must discard again
        after a card was forced back on him, or the player in turn (None once it is over)."""
        if self.phase is DECLARING:
            return self.order[self.next_declarer]
        if self.forced_discard is not None:
            return self.forced_discard
        return self.current

    def liable(self, collector: int) -> list[int]:
        """Who pays a condition: every other player still in, and self-fouled players
        (house foul rule 2: they pay all collections for the rest of the hand)."""
        return [i for i, s in self.seats.items() if i != collector
                and s.status in (IN, SELF_FOULED)]

    def tops_waiting(self) -> bool:
        """Every other player passed (or has a dead hand) and the one left has not yet taken
        the tops: the last passer may still change his declaration."""
        return (self.phase is PLAYING and not self.first_draw_done
                and len(self.in_players()) == 1
                and all(s.status in (IN, PASSED, DEAD)
                        for s in self.seats.values()))

    @property
    def head_up(self) -> bool:
        return len(self.in_players()) == 2

    def next_in(self, seat: int) -> int | None:
        """The next seat still in after `seat`, to the right (`after`)."""
        seats = self.seats
        for j in self.after[seat]:
            if seats[j].status is IN:
                return j
        return None


    def _move(self, payer: int | None, payee: int | None, chips: int, reason: str) -> int:
        if chips <= 0:
            return 0
        if payer is not None:
            self.seats[payer].chips -= chips
        if payee is not None:
            self.seats[payee].chips += chips
        self._log(ChipsMoved(payer, payee, chips, reason))
        return chips

    def multiplier(self, collector: int, payer: int) -> int:
        """Double condition: doubles pay doubles double; a doubles player down to one chip
        collects single until built back up; no condition bigger than double."""
        c, p = self.seats[collector], self.seats[payer]
        return 2 if c.doubles and p.doubles and c.chips >= 2 else 1

    # ----- generic ----------------------------------------------------------------------------

    @staticmethod
    def _can(fn: Callable[..., None], *args: Any) -> bool:
        """For a `can_x` that asks more than its `verify_x` (the others: `able`)."""
        try:
            fn(*args)
        except PanRuleError:
            return False
        return True

    def _void(self, reason: str) -> int:
        """Every stack back to what it was before the hand (the tops it paid, conditions and
        all); the tops carried into the hand stay in the pot for the next one."""
        back = sum(self.single_contrib.values()) + sum(self.double_contrib.values())
        for s in self.seats.values():
            s.chips = s.start_chips
        self.tops_single, self.tops_double = self.carried_tops
        self.tops_carry = self.carried_tops
        self.phase = COMPLETE
        self.winner = None
        self.end_reason = f"voided: {reason}"
        return back

    def chips_delta(self) -> list[int]:
        """Each seat's chips won (negative: lost) in the hand, in `ring` order."""
        return [s.chips - s.start_chips for s in self.seats.values()]
