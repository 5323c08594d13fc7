"""One hand of Pan as a state machine: every action has verify_x (raises PanRuleError naming the
rule and changes nothing), can_x (yes or no) and x (applies it and returns the frozen events it
appended to `events`).

Seats are numbered in the order of play (to the right). Chips are whole chips; the table's
chip value in cents is a house rule.
"""

from __future__ import annotations

import functools
import inspect
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from cardroom.cards import Card

from . import errors as R
from .cards import ORDER
from .errors import PanRuleError
from .events import (
    ChipsMoved,
    CollectionLost,
    ConditionMade,
    CountCorrected,
    Dealt,
    Declared,
    Discarded,
    Drew,
    Event,
    Forced,
    FoulCalled,
    HandEnded,
    Irregularity,
    Melded,
    StockReshuffled,
    Took,
    ToppedUp,
    WentOut,
)
from .melds import (
    MeldKind,
    addition_units,
    conditions_of,
    fits,
    is_valid_on_board,
    lay_down_units,
    meld_kind,
    meld_value,
    sort_meld,
    split_units,
    triple_ok,
)
from .rules import HAND_SIZE, MAX_SEATS, MIN_SEATS, PanRules


class Phase(StrEnum):
    DECLARING = "declaring"
    PLAYING = "playing"
    LAST_PLAYER = "last-player"
    COMPLETE = "complete"


class Status(StrEnum):
    IN = "in"
    PASSED = "passed"
    DEAD = "dead"
    FOULED = "fouled"
    SELF_FOULED = "self-fouled"
    BUSTED = "busted"
    OUT = "out"


class Cause(StrEnum):
    """House foul rule 3 A-F, rule 15 and rule 7 (the floorman)."""

    WRONG_COUNT = "3A wrong card count after touching the deck"
    DISCARD_COUNT = "3B two discards or no discard"
    FLOOR = "3C card thrown on the floor"
    INVALID_MELD = "3D invalid meld not corrected"
    DECK_CARD_IN_HAND = "3E card from the deck put in the hand"
    FALSE_OUT = "3F false declaration of going out"
    BOARD_CARD = "15 card removed from a board spread"
    FLOORMAN = "7 declared foul by the floorman"


@dataclass(frozen=True, slots=True)
class SeatSpec:
    name: str
    chips: int
    doubles: bool = False


@dataclass
class BoardMeld:
    cards: tuple[Card, ...]
    kind: MeldKind | None
    primary: bool
    deck_card: Card | None = None

    @property
    def valid(self) -> bool:
        return self.kind is not None


@dataclass(eq=False)
class DiscardEntry:
    card: Card
    seat: int
    from_stock: bool
    drawers: set[int] = field(default_factory=set)
    touched: bool = False


@dataclass
class SeatState:
    name: str
    chips: int
    doubles: bool
    hand: list[Card] = field(default_factory=list)
    melds: list[BoardMeld] = field(default_factory=list)
    status: Status = Status.IN
    declared: bool | None = None
    collected: Counter[int] = field(default_factory=Counter)
    owed: Counter[int] = field(default_factory=Counter)
    causes: list[Cause] = field(default_factory=list)
    pending: list[tuple[int, str]] = field(default_factory=list)
    touched_deck: bool = False
    locked_declaration: bool = False
    late_change_allowed: bool = False
    threw_in: bool = False
    foul_value: int = 0
    pays_outs_when_fouled: bool = False
    start_chips: int = 0

    @property
    def melded_count(self) -> int:
        return sum(len(m.cards) for m in self.melds)

    @property
    def card_count(self) -> int:
        return len(self.hand) + self.melded_count


def _take_cards(hand: list[Card], cards: Sequence[Card]) -> list[Card] | None:
    """`hand` less `cards` (as a multiset), or None when the hand lacks one of them."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            return None
    return rest


def _jsonable(v: object) -> Any:
    if isinstance(v, Card):
        return str(v)
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return v


F = Callable[..., list[Event]]


def action(fn: F) -> F:
    """Record a successful top-level action (name and arguments) in `actions`: the replay
    input of the hand history."""
    sig = inspect.signature(fn)

    @functools.wraps(fn)
    def wrapper(self: PanHand, *args: Any, **kwargs: Any) -> list[Event]:
        self._depth += 1
        try:
            out = fn(self, *args, **kwargs)
        finally:
            self._depth -= 1
        if self.record and self._depth == 0:
            bound = sig.bind(self, *args, **kwargs)
            bound.apply_defaults()
            entry = {"type": fn.__name__}
            entry.update({k: _jsonable(v) for k, v in bound.arguments.items() if k != "self"})
            self.actions.append(entry)
        return out

    return wrapper


def _check(ok: bool, rule: str, message: str) -> None:
    if not ok:
        raise PanRuleError(rule, message)


class PanHand:
    """One hand from the tops to the settlement."""

    def __init__(self, rules: PanRules, seats: Sequence[SeatSpec], dealer: int,
                 pack: Sequence[Card], deal_counts: Sequence[int] | None = None,
                 carried_tops: tuple[int, int] = (0, 0), record: bool = True) -> None:
        n = len(seats)
        if not (MIN_SEATS <= n <= MAX_SEATS):
            raise PanRuleError(
                R.ROTATION,
                f"a Pan table seats {MIN_SEATS} to {MAX_SEATS} players, not {n}")
        if not (0 <= dealer < n):
            raise PanRuleError(R.ROTATION, f"no seat {dealer} to deal")
        for i, spec in enumerate(seats):
            if not (spec.chips >= 1):
                raise PanRuleError(
                    R.PAYS_5,
                    f"seat {i} has no chips: a player may not play for the tops when out of chips")
            _check(not spec.doubles or rules.allow_double_condition, R.DOUBLES,
                   "this room plays straight condition: no doubles players")
        counts = list(deal_counts) if deal_counts is not None else [HAND_SIZE] * n
        _check(len(counts) == n and all(0 <= c <= 20 for c in counts), R.ROTATION,
               "deal counts must give each seat 0 to 20 cards")
        _check(sum(counts) < len(pack), R.ROTATION, "the pack is too small for this deal")
        self.rules = rules
        self.record = record  # False: no action log (simulation); events are always kept
        self.pack = tuple(pack)
        self.deal_counts = tuple(deal_counts) if deal_counts is not None else None
        self.carried_tops = carried_tops
        self.specs = tuple(seats)
        self.n = n
        self.dealer = dealer
        self.first_hand = (dealer + 1) % n
        self.seats = [SeatState(s.name, s.chips, s.doubles, start_chips=s.chips) for s in seats]
        self.events: list[Event] = []
        self.actions: list[dict[str, Any]] = []
        self._depth = 0
        self.tops_single = carried_tops[0]
        self.tops_double = carried_tops[1]
        self.double_contrib: Counter[int] = Counter()
        self.single_contrib: Counter[int] = Counter()
        self.phase = Phase.DECLARING
        self.order = [(self.first_hand + i) % n for i in range(n)]
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
        # tops (Tops and declarations; double condition antes kept apart)
        for i, s in enumerate(self.seats):
            double = 1 if s.doubles and s.chips >= 2 else 0
            s.chips -= 1 + double
            self.tops_single += 1
            self.single_contrib[i] += 1
            self.tops_double += double
            self.double_contrib[i] += double
            self._log(ToppedUp(i, 1, double))
        # the deal: to the right from the first hand, two rounds of five
        cards = list(pack)
        pos = 0
        for rnd in range(2):
            for i in self.order:
                k = min(5, counts[i]) if rnd == 0 else counts[i] - min(5, counts[i])
                self.seats[i].hand.extend(cards[pos:pos + k])
                pos += k
        self.stock = cards[pos:][::-1]  # the top of the stock is the end of the list
        self._log(Dealt(dealer, self.first_hand, tuple(counts)))

    # ----- small helpers ------------------------------------------------------------------

    def _log(self, ev: Event) -> None:
        self.events.append(ev)

    def _seat(self, seat: int) -> SeatState:
        if not (isinstance(seat, int) and 0 <= seat < self.n):
            raise PanRuleError(R.ROTATION, f"no seat {seat}")
        return self.seats[seat]

    def _open(self) -> None:
        _check(self.phase is not Phase.COMPLETE, R.PAN_1,
               "the hand is out of play: no decision can be made on it")

    def in_players(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s.status is Status.IN]

    def liable(self, collector: int) -> list[int]:
        """Who pays a condition: every other player still in, and self-fouled players
        (house foul rule 2: they pay all collections for the rest of the hand)."""
        return [i for i, s in enumerate(self.seats) if i != collector
                and s.status in (Status.IN, Status.SELF_FOULED)]

    @property
    def head_up(self) -> bool:
        return len(self.in_players()) == 2

    def next_in(self, seat: int) -> int | None:
        for k in range(1, self.n + 1):
            j = (seat + k) % self.n
            if self.seats[j].status is Status.IN:
                return j
        return None

    def prev_in(self, seat: int) -> int | None:
        for k in range(1, self.n):
            j = (seat - k) % self.n
            if self.seats[j].status is Status.IN:
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

    def card_uses(self, seat: int, card: Card) -> list[tuple[Any, ...]]:
        """Ways `seat` can meld `card` at once: ("lay_off", meld), ("meld", hand cards),
        ("borrow", meld, borrowed cards, hand cards)."""
        s = self.seats[seat]
        strict = self.rules.strict_set_additions
        uses: list[tuple[Any, ...]] = []
        for mi, m in enumerate(s.melds):
            if m.kind is not None and fits(m.cards, m.kind, card, strict):
                uses.append(("lay_off", mi))
        hand = s.hand
        o = ORDER[card.rank]
        near = [x for x in hand if x.rank == card.rank
                or (x.suit == card.suit and abs(ORDER[x.rank] - o) <= 2)]
        for a in range(len(near)):
            for b in range(a + 1, len(near)):
                x, y = near[a], near[b]
                if triple_ok(card, x, y):
                    uses.append(("meld", (x, y)))
        for mi, m in enumerate(s.melds):
            if m.kind is None or len(m.cards) < 4:
                continue
            for bc in set(m.cards):
                if bc.rank != card.rank and (bc.suit != card.suit
                                             or abs(ORDER[bc.rank] - o) > 2):
                    continue
                rest = list(m.cards)
                rest.remove(bc)
                if not is_valid_on_board(rest, m.kind, strict):
                    continue
                for x in set(near):
                    if triple_ok(card, bc, x):
                        uses.append(("borrow", mi, (bc,), (x,)))
        return uses

    def goes_out_with(self, seat: int, card: Card) -> bool:
        """Would laying `card` off put `seat` out (ten cards spread, none in hand)?"""
        s = self.seats[seat]
        return (s.status is Status.IN and not s.hand and s.melded_count == HAND_SIZE
                and any(u[0] == "lay_off" for u in self.card_uses(seat, card)))

    def out_value(self, seat: int, card: Card) -> int:
        """Chips per player for going out with `card`: outs plus what the card's lay-off pays."""
        s = self.seats[seat]
        best = 0
        for m in s.melds:
            if m.kind is not None and fits(m.cards, m.kind, card, self.rules.strict_set_additions):
                best = max(best, addition_units(m.cards, (*m.cards, card), m.kind, self.rules))
        return self.rules.outs_chips + best

    # ----- declarations (Tops and declarations; house rules 8, 9) ---------------------------

    def verify_declare(self, seat: int, play: bool) -> None:
        self._open()
        self._seat(seat)
        _check(self.phase is Phase.DECLARING, R.DECLARATIONS, "declarations are over")
        if not (self.order[self.next_declarer] == seat):
            raise PanRuleError(
                R.FOUL_9,
                f"seat {self.order[self.next_declarer]} declares next, not seat {seat}")
        s = self.seats[seat]
        if s.status is not Status.IN:
            raise PanRuleError(R.DECLARATIONS, f"seat {seat} is not in the hand")
        if not play:
            live = [i for i in self.in_players() if self.seats[i].declared is not False]
            _check(len(live) > 1, R.DECLARATIONS,
                   "every other player has passed: this player takes the tops")

    def can_declare(self, seat: int, play: bool) -> bool:
        return self._can(self.verify_declare, seat, play)

    @action
    def declare(self, seat: int, play: bool) -> list[Event]:
        """Play or pass, in turn from the first hand (a knock in turn means play)."""
        self.verify_declare(seat, play)
        mark = len(self.events)
        self._set_declaration(seat, play, changed=False)
        self.next_declarer += 1
        while (self.next_declarer < self.n
               and self.seats[self.order[self.next_declarer]].status is not Status.IN):
            self.next_declarer += 1
        self._after_declaration()
        return self.events[mark:]

    @action
    def knock(self, seat: int) -> list[Event]:
        """House rules: a knock in turn means play."""
        return self.declare(seat, True)

    def _set_declaration(self, seat: int, play: bool, changed: bool) -> None:
        s = self.seats[seat]
        s.declared = play
        if not play:
            s.status = Status.PASSED
            fee = min(self.rules.pass_forfeit_chips, s.chips)
            if fee:
                s.chips -= fee
                self.tops_single += fee
                self.single_contrib[seat] += fee
                self._log(ChipsMoved(seat, None, fee, "pass forfeit to the tops"))
        else:
            if s.status is Status.PASSED:
                s.status = Status.IN
                fee = min(self.rules.pass_forfeit_chips, self.single_contrib[seat] - 1)
                if fee:
                    s.chips += fee
                    self.tops_single -= fee
                    self.single_contrib[seat] -= fee
                    self._log(ChipsMoved(None, seat, fee, "pass forfeit returned"))
        self._log(Declared(seat, play, changed))

    def _after_declaration(self) -> None:
        live = [i for i in self.in_players() if self.seats[i].declared is not False]
        if len(live) == 1 and all(self.seats[i].declared is not None or i == live[0]
                                  for i in self.in_players()):
            self._award_tops_alone(live[0], "every other player passed")
            return
        if self.next_declarer >= self.n and self.phase is Phase.DECLARING:
            self.phase = Phase.PLAYING
            self.current = self.order[0]
            if self.seats[self.current].status is not Status.IN:
                self.current = self.next_in(self.current)

    def verify_change_declaration(self, seat: int) -> None:
        """A declaration may be changed until the next player has acted; the last player not
        after the first card has been drawn; house rule 8B/8C exceptions."""
        self._open()
        s = self._seat(seat)
        if not (s.declared is not None):
            raise PanRuleError(R.DECLARATIONS, f"seat {seat} has not declared")
        if s.status not in (Status.IN, Status.PASSED):
            raise PanRuleError(R.DECLARATIONS, f"seat {seat} is out of the hand")
        _check(not s.locked_declaration, R.FOUL_8,
               "a player given a card for a nine-card hand may not change his declaration")
        _check(not self.first_draw_done or s.late_change_allowed, R.DECLARATIONS,
               "declarations are final once the first card has been drawn and exposed")
        if s.late_change_allowed:
            return
        idx = self.order.index(seat)
        later = [self.order[j] for j in range(idx + 1, self.n)
                 if self.seats[self.order[j]].status in (Status.IN, Status.PASSED)]
        if later:
            _check(self.seats[later[0]].declared is None, R.DECLARATIONS,
                   "the next player has acted: the declaration stands")
        if s.declared:
            live = [i for i in self.in_players() if self.seats[i].declared is not False]
            _check(len(live) > 1, R.DECLARATIONS, "the only player left cannot pass")

    def can_change_declaration(self, seat: int) -> bool:
        return self._can(self.verify_change_declaration, seat)

    @action
    def change_declaration(self, seat: int) -> list[Event]:
        self.verify_change_declaration(seat)
        mark = len(self.events)
        s = self.seats[seat]
        s.late_change_allowed = False
        self._set_declaration(seat, not s.declared, changed=True)
        if self.phase is Phase.PLAYING:
            if self.current is not None and self.seats[self.current].status is not Status.IN:
                self.current = self.next_in(self.current)
            elif s.status is Status.IN and self.current is not None:
                # back in before anyone drew: play starts again from the first hand
                self.current = next(i for i in self.order if self.seats[i].status is Status.IN)
            live = self.in_players()
            if len(live) == 1:
                self._award_tops_alone(live[0], "every other player passed")
        else:
            self._after_declaration()
        return self.events[mark:]

    # ----- wrong card counts (house foul rule 8) ----------------------------------------------

    def verify_correct_count(self, seat: int, pick: int | None = None) -> None:
        self._open()
        s = self._seat(seat)
        if s.status not in (Status.IN, Status.PASSED):
            raise PanRuleError(R.FOUL_8, f"seat {seat} is not in the hand")
        _check(not s.touched_deck, R.FOUL_8,
               "the player has touched the deck: a wrong count is now a foul (rule 3A)")
        k = s.card_count
        if not (k != HAND_SIZE):
            raise PanRuleError(R.FOUL_8, f"seat {seat} holds ten cards")
        if k == HAND_SIZE + 1:
            _check(pick is not None and 0 <= pick < len(s.hand), R.FOUL_8,
                   "the dealer removes one card at random: give its position in the hand")
        if k == HAND_SIZE - 1:
            _check(bool(self.stock), R.FOUL_8, "no card left to add")

    def can_correct_count(self, seat: int, pick: int | None = None) -> bool:
        return self._can(self.verify_correct_count, seat, pick)

    @action
    def correct_count(self, seat: int, pick: int | None = None) -> list[Event]:
        """8A: eight or fewer / twelve or more: dead hand, ante returned. 8B: nine: one card
        added from the top (from the middle when the cards dealt out total correctly), no
        change of declaration. 8C: eleven: the dealer removes one at random (`pick`, chosen by
        the house's random source), and the player may change his declaration."""
        self.verify_correct_count(seat, pick)
        mark = len(self.events)
        s = self.seats[seat]
        k = s.card_count
        if k <= HAND_SIZE - 2 or k >= HAND_SIZE + 2:
            s.status = Status.DEAD
            self.stock[:0] = s.hand[::-1]
            s.hand = []
            back = self.single_contrib[seat]
            self.tops_single -= back
            self.single_contrib[seat] = 0
            dback = self.double_contrib[seat]
            self.tops_double -= dback
            self.double_contrib[seat] = 0
            s.chips += back + dback
            self._log(ChipsMoved(None, seat, back + dback, "dead hand: ante returned"))
            self._log(CountCorrected(seat, k, "dead hand", None))
            if self.phase is Phase.DECLARING:
                if self.order[self.next_declarer] == seat:
                    self.next_declarer += 1
                self._after_declaration()
            elif self.current == seat:
                self.current = self.next_in(seat)
            if self.phase is not Phase.COMPLETE and len(self.in_players()) == 1:
                self._award_tops_alone(self.in_players()[0], "every other hand is dead")
        elif k == HAND_SIZE - 1:
            dealt = sum(x.card_count for x in self.seats)
            if dealt == HAND_SIZE * self.n and len(self.stock) > 2:
                card = self.stock.pop(len(self.stock) // 2)
                where = "added from the middle of the deck"
            else:
                card = self.stock.pop()
                where = "added from the top of the deck"
            s.hand.append(card)
            s.locked_declaration = True
            self._log(CountCorrected(seat, k, where, card))
        else:
            assert pick is not None
            card = s.hand.pop(pick)
            self.stock.insert(0, card)
            s.late_change_allowed = True
            self._log(CountCorrected(seat, k, "one card removed at random", card))
        return self.events[mark:]

    # ----- the turn: drawing (A turn, 1) --------------------------------------------------

    def _verify_turn(self, seat: int) -> SeatState:
        self._open()
        s = self._seat(seat)
        if self.phase is not Phase.PLAYING:
            raise PanRuleError(R.TURN_1, f"no turn now: the hand is {self.phase}")
        if not (self.forced_discard is None or self.forced_discard == seat):
            raise PanRuleError(
                R.RULE_13,
                f"seat {self.forced_discard} must first discard after a forced card")
        if not (self.current == seat or self.forced_discard == seat):
            raise PanRuleError(R.TURN_1, f"it is seat {self.current}'s turn, not seat {seat}'s")
        if s.status is not Status.IN:
            raise PanRuleError(R.TURN_1, f"seat {seat} is not in the hand")
        return s

    def verify_draw(self, seat: int) -> None:
        self._verify_turn(seat)
        _check(self.forced_discard is None, R.RULE_13, "a forced discard comes first")
        _check(not self.turn_started, R.TURN_1, "one draw a turn")
        _check(self.false_out is None, R.FOUL_3, "a false declaration of going out is pending")
        _check(bool(self.stock), R.STOCK_OUT, "the stock is out: reshuffle the discards first")

    def can_draw(self, seat: int) -> bool:
        return self._can(self.verify_draw, seat)

    @action
    def draw(self, seat: int) -> list[Event]:
        """Draw the top of the stock; it is turned face up for everyone (house rule 10)."""
        self.verify_draw(seat)
        mark = len(self.events)
        card = self.stock.pop()
        self._start_turn(seat, card, "stock")
        self._log(Drew(seat, card))
        return self.events[mark:]

    def _start_turn(self, seat: int, card: Card, kind: str) -> None:
        s = self.seats[seat]
        self.drawn = card
        self.drawn_kind = kind
        self.turn_started = True
        self.turn_actions = 0
        self.option_resolved = kind != "stock"
        self.first_draw_done = True
        self.split_offer = None
        s.late_change_allowed = False
        if s.card_count != HAND_SIZE and Cause.WRONG_COUNT not in s.causes:
            s.causes.append(Cause.WRONG_COUNT)
        if any(not m.valid for m in s.melds) and Cause.INVALID_MELD not in s.causes:
            s.causes.append(Cause.INVALID_MELD)
        s.touched_deck = True
        if self._live:
            live = []
            for d in self._live:
                if d.seat == seat:
                    d.touched = True
                elif d.from_stock:
                    d.drawers.add(seat)  # never the discarder himself
                if not d.touched or (d.from_stock and len(d.drawers) < 2):
                    live.append(d)
            self._live = live

    def verify_take(self, seat: int) -> None:
        self._verify_turn(seat)
        _check(self.forced_discard is None, R.RULE_13, "a forced discard comes first")
        _check(not self.turn_started, R.TURN_1, "one draw a turn")
        _check(self.false_out is None, R.FOUL_3, "a false declaration of going out is pending")
        top = self.option_card()
        _check(top is not None, R.TURN_1,
               "only the previous player's unused stock card may be taken; a card discarded "
               "from the hand is dead")
        assert top is not None
        if not (bool(self.card_uses(seat, top.card))):
            raise PanRuleError(
                R.TURN_1,
                f"{top.card} cannot be melded at once, so it may not be taken")

    def can_take(self, seat: int) -> bool:
        return self._can(self.verify_take, seat)

    @action
    def take(self, seat: int) -> list[Event]:
        """Take the previous player's unused stock card, only to meld it at once."""
        self.verify_take(seat)
        mark = len(self.events)
        entry = self.discards.pop()
        self._drop_live(entry)
        self._start_turn(seat, entry.card, "taken")
        self._log(Took(seat, entry.card))
        return self.events[mark:]

    # ----- melding (A turn, 2-3; melds; borrowing; splitting) -------------------------------

    def _verify_meld_turn(self, seat: int, use_drawn: bool) -> SeatState:
        s = self._verify_turn(seat)
        _check(self.forced_discard is None, R.RULE_13, "a forced discard comes first")
        _check(self.current == seat, R.TURN_3, "melds are made in one's own turn")
        _check(self.turn_started, R.TURN_3, "draw first")
        if use_drawn:
            _check(self.drawn is not None, R.TURN_2, "there is no unused drawn card")
        else:
            if self.drawn is not None:
                raise PanRuleError(
                    R.TURN_2,
                    f"the drawn card {self.drawn} must be melded at once or discarded first")
        return s

    def verify_meld(self, seat: int, cards: Sequence[Card], use_drawn: bool = False) -> None:
        s = self._verify_meld_turn(seat, use_drawn)
        if not (_take_cards(s.hand, cards) is not None):
            raise PanRuleError(R.MELDS, f"seat {seat} does not hold {' '.join(map(str, cards))}")
        allc = (*cards, self.drawn) if use_drawn and self.drawn else tuple(cards)
        if not (meld_kind(allc) is not None):
            raise PanRuleError(
                R.MELDS,
                f"{' '.join(map(str, allc))} is no meld: a set needs three or more of one "
                "rank (except aces and kings: all one suit or all different suits); a "
                "sequence three or more of one suit in order A 2 3 4 5 6 7 J Q K")

    def can_meld(self, seat: int, cards: Sequence[Card], use_drawn: bool = False) -> bool:
        return self._can(self.verify_meld, seat, cards, use_drawn)

    @action
    def meld(self, seat: int, cards: Sequence[Card], use_drawn: bool = False) -> list[Event]:
        """A new meld from hand cards, with the drawn card when `use_drawn`."""
        self.verify_meld(seat, cards, use_drawn)
        mark = len(self.events)
        s = self.seats[seat]
        rest = _take_cards(s.hand, cards)
        assert rest is not None
        allc = (*cards, self.drawn) if use_drawn and self.drawn else tuple(cards)
        kind = meld_kind(allc)
        assert kind is not None
        deck_card = self._use_drawn() if use_drawn else None
        s.hand = rest
        m = BoardMeld(sort_meld(allc, kind), kind, use_drawn, deck_card)
        s.melds.append(m)
        self.turn_actions += 1
        self._log(Melded(seat, len(s.melds) - 1, m.cards, "meld", True))
        self._hit(seat, len(s.melds) - 1, lay_down_units(m.cards, kind, self.rules), "laid down")
        return self.events[mark:]

    def _use_drawn(self) -> Card:
        card = self.drawn
        assert card is not None
        self.drawn = None
        return card

    def verify_lay_off(self, seat: int, meld: int, card: Card | None = None) -> None:
        s = self._verify_meld_turn(seat, card is None)
        if not (0 <= meld < len(s.melds)):
            raise PanRuleError(R.MELDS, f"seat {seat} has no meld {meld}")
        m = s.melds[meld]
        c = self.drawn if card is None else card
        assert c is not None
        if card is not None and card not in s.hand:
            raise PanRuleError(R.MELDS, f"seat {seat} does not hold {card}")
        if not (m.kind is not None and fits(m.cards, m.kind, c, self.rules.strict_set_additions)):
            raise PanRuleError(R.MELDS, f"{c} does not fit the meld {' '.join(map(str, m.cards))}")

    def can_lay_off(self, seat: int, meld: int, card: Card | None = None) -> bool:
        return self._can(self.verify_lay_off, seat, meld, card)

    @action
    def lay_off(self, seat: int, meld: int, card: Card | None = None) -> list[Event]:
        """Add one card to one of the player's own melds (None: the drawn card)."""
        self.verify_lay_off(seat, meld, card)
        mark = len(self.events)
        s = self.seats[seat]
        if card is None:
            c = self._use_drawn()
        else:
            c = card
            s.hand.remove(card)
        self.turn_actions += 1
        self._add_to_meld(seat, meld, c, "lay off")
        return self.events[mark:]

    def _add_to_meld(self, seat: int, meld: int, card: Card, action: str) -> None:
        s = self.seats[seat]
        m = s.melds[meld]
        assert m.kind is not None
        before = m.cards
        m.cards = sort_meld((*before, card), m.kind)
        self._log(Melded(seat, meld, m.cards, action, True))
        self._hit(seat, meld, addition_units(before, m.cards, m.kind, self.rules), "added to")

    def verify_borrow(self, seat: int, meld: int, borrowed: Sequence[Card],
                      cards: Sequence[Card], use_drawn: bool = False) -> None:
        s = self._verify_meld_turn(seat, use_drawn)
        if not (0 <= meld < len(s.melds)):
            raise PanRuleError(R.BORROWING, f"seat {seat} has no meld {meld}")
        m = s.melds[meld]
        _check(m.kind is not None, R.BORROWING, "cannot borrow from an invalid meld")
        assert m.kind is not None
        left = _take_cards(list(m.cards), borrowed)
        _check(left is not None and len(borrowed) > 0, R.BORROWING,
               "the borrowed cards must come from that meld")
        assert left is not None
        _check(is_valid_on_board(left, m.kind, self.rules.strict_set_additions), R.BORROWING,
               "what is left of the meld must still be a valid meld")
        if not (_take_cards(s.hand, cards) is not None):
            raise PanRuleError(
                R.BORROWING,
                f"seat {seat} does not hold {' '.join(map(str, cards))}")
        allc = (*borrowed, *cards, *((self.drawn,) if use_drawn and self.drawn else ()))
        if not (meld_kind(allc) is not None):
            raise PanRuleError(R.BORROWING, f"{' '.join(map(str, allc))} is no meld")

    def can_borrow(self, seat: int, meld: int, borrowed: Sequence[Card], cards: Sequence[Card],
                   use_drawn: bool = False) -> bool:
        return self._can(self.verify_borrow, seat, meld, borrowed, cards, use_drawn)

    @action
    def borrow(self, seat: int, meld: int, borrowed: Sequence[Card], cards: Sequence[Card],
               use_drawn: bool = False) -> list[Event]:
        """Take cards from one's own meld to make a new meld, leaving a valid meld."""
        self.verify_borrow(seat, meld, borrowed, cards, use_drawn)
        mark = len(self.events)
        s = self.seats[seat]
        m = s.melds[meld]
        assert m.kind is not None
        left = _take_cards(list(m.cards), borrowed)
        rest = _take_cards(s.hand, cards)
        assert left is not None and rest is not None
        deck_card = self._use_drawn() if use_drawn else None
        allc = (*borrowed, *cards, *((deck_card,) if deck_card else ()))
        kind = meld_kind(allc)
        assert kind is not None
        m.cards = sort_meld(left, m.kind)
        s.hand = rest
        new = BoardMeld(sort_meld(allc, kind), kind, use_drawn, deck_card)
        s.melds.append(new)
        self.turn_actions += 1
        self._log(Melded(seat, meld, m.cards, "borrowed from", True))
        self._log(Melded(seat, len(s.melds) - 1, new.cards, "borrow", True))
        self._hit(seat, len(s.melds) - 1, lay_down_units(new.cards, kind, self.rules),
                  "laid down by borrowing")
        return self.events[mark:]

    def verify_split(self, seat: int, meld: int, part: Sequence[Card]) -> None:
        s = self._verify_meld_turn(seat, False)
        if not (0 <= meld < len(s.melds)):
            raise PanRuleError(R.SPLITTING, f"seat {seat} has no meld {meld}")
        m = s.melds[meld]
        _check(m.kind is not None, R.SPLITTING, "cannot split an invalid meld")
        assert m.kind is not None
        rest = _take_cards(list(m.cards), part)
        _check(rest is not None, R.SPLITTING, "the part must come from that meld")
        assert rest is not None
        strict = self.rules.strict_set_additions
        _check(is_valid_on_board(part, m.kind, strict) and is_valid_on_board(rest, m.kind, strict),
               R.SPLITTING, "each part of a split must be a valid meld")

    def can_split(self, seat: int, meld: int, part: Sequence[Card]) -> bool:
        return self._can(self.verify_split, seat, meld, part)

    @action
    def split(self, seat: int, meld: int, part: Sequence[Card]) -> list[Event]:
        """Split a grown meld into two valid melds; a condition made by splitting pays."""
        self.verify_split(seat, meld, part)
        mark = len(self.events)
        s = self.seats[seat]
        m = s.melds[meld]
        assert m.kind is not None
        whole = m.cards
        rest = _take_cards(list(whole), part)
        assert rest is not None
        m.cards = sort_meld(rest, m.kind)
        new = BoardMeld(sort_meld(part, m.kind), m.kind, False)
        s.melds.append(new)
        self.turn_actions += 1
        self._log(Melded(seat, meld, m.cards, "split", True))
        self._log(Melded(seat, len(s.melds) - 1, new.cards, "split", True))
        self._hit(seat, len(s.melds) - 1,
                  split_units(whole, (m.cards, new.cards), m.kind, self.rules), "made by splitting")
        return self.events[mark:]

    # ----- collections (Conditions; house pays rules 1 and 5) -------------------------------

    def _hit(self, seat: int, meld: int, units: int, why: str) -> None:
        if units > 0:
            self.seats[seat].pending.append((units, why))
            self._log(ConditionMade(seat, meld, units, why))

    def verify_collect(self, seat: int) -> None:
        self._open()
        s = self._seat(seat)
        if s.status is not Status.IN:
            raise PanRuleError(R.PAYS_1, f"seat {seat} is not in the hand")
        _check(bool(s.pending), R.PAYS_1, "nothing to collect: no condition laid down")

    def can_collect(self, seat: int) -> bool:
        return self._can(self.verify_collect, seat)

    @action
    def collect(self, seat: int) -> list[Event]:
        """Call for pay: from every player still in, commensurate with the chips the collector
        has on the table (table stakes); any shortfall is owed and may be asked for again each
        time the collector's hand is hit."""
        self.verify_collect(seat)
        mark = len(self.events)
        self._collect(seat)
        self._after_status_change()
        return self.events[mark:]

    def _collect(self, seat: int) -> None:
        s = self.seats[seat]
        units = sum(u for u, _ in s.pending)
        s.pending = []
        stake = s.chips
        for p in self.liable(seat):
            payer = self.seats[p]
            due = units * self.multiplier(seat, p) + s.owed.pop(p, 0)
            paid = min(due, stake, payer.chips)
            self._move(p, seat, paid, "condition")
            s.collected[p] += paid
            if due > paid:
                s.owed[p] += due - paid
            if payer.chips == 0 and payer.status is Status.IN:
                payer.status = Status.BUSTED
                self._log(Irregularity(p, "out of chips", "hand thrown in (pays rule 5B)"))

    def _lose_pending(self, seat: int) -> None:
        s = self.seats[seat]
        for units, why in s.pending:
            self._log(CollectionLost(seat, units, f"{why}: not called before the discard"))
        s.pending = []

    # ----- discarding and going out (A turn, 4-5; house rules 11, 17) ----------------------

    def verify_discard(self, seat: int, card: Card) -> None:
        s = self._verify_turn(seat)
        if self.forced_discard == seat:
            if card not in s.hand:
                raise PanRuleError(R.RULE_13, f"seat {seat} does not hold {card}")
            return
        _check(self.turn_started, R.TURN_4, "draw first")
        _check(self.false_out is None or self.false_out == seat, R.FOUL_3,
               "a false declaration of going out is pending")
        if self.drawn is not None:
            if not (card == self.drawn):
                raise PanRuleError(
                    R.TURN_2,
                    f"a drawn card never goes into the hand: discard {self.drawn} or meld it")
            _check(self.drawn_kind == "stock", R.TURN_1,
                   "a card taken from the previous player must be melded at once")
            nxt = self.next_in(seat)
            if nxt is not None and nxt != seat and self.goes_out_with(nxt, card) \
                    and self.card_uses(seat, card):
                raise PanRuleError(
                    R.RULE_17,
                    f"{card} would put seat {nxt} (ten cards spread) out and can be used here")
        else:
            if card not in s.hand:
                raise PanRuleError(R.TURN_4, f"seat {seat} does not hold {card}")

    def can_discard(self, seat: int, card: Card) -> bool:
        return self._can(self.verify_discard, seat, card)

    @action
    def discard(self, seat: int, card: Card) -> list[Event]:
        """Exactly one discard ends the turn; uncalled collections are lost."""
        self.verify_discard(seat, card)
        mark = len(self.events)
        s = self.seats[seat]
        if self.forced_discard == seat:
            s.hand.remove(card)
            self._lose_pending(seat)
            self._add_discard(DiscardEntry(card, seat, False))
            self._log(Discarded(seat, card, False))
            self.forced_discard = None
            return self.events[mark:]
        from_stock = self.drawn is not None
        if from_stock:
            self.drawn = None
        else:
            s.hand.remove(card)
        self._lose_pending(seat)
        self._add_discard(DiscardEntry(card, seat, from_stock))
        self._log(Discarded(seat, card, from_stock))
        if self.false_out == seat:
            self.false_out = None
            for x in self.seats:
                x.threw_in = False
        self._end_turn(seat)
        return self.events[mark:]

    def _add_discard(self, entry: DiscardEntry) -> None:
        self.discards.append(entry)
        self._live.append(entry)

    def _drop_live(self, entry: DiscardEntry) -> None:
        self._live = [d for d in self._live if d is not entry]

    def _end_turn(self, seat: int) -> None:
        self.last_discarder = seat
        self.turn_started = False
        self.drawn = None
        self.drawn_kind = None
        if self.phase is Phase.PLAYING:
            self.current = self.next_in(seat)

    def verify_go_out(self, seat: int) -> None:
        s = self._verify_turn(seat)
        _check(self.current == seat and self.turn_started, R.TURN_5, "go out in one's own turn")
        _check(self.drawn is None and not s.hand, R.TURN_5,
               "going out takes all ten cards and the drawn card melded")
        _check(s.melded_count == HAND_SIZE + 1, R.TURN_5,
               "going out takes eleven melded cards")
        _check(all(m.valid for m in s.melds), R.TURN_5, "every meld must be valid")

    def can_go_out(self, seat: int) -> bool:
        return self._can(self.verify_go_out, seat)

    @action
    def go_out(self, seat: int) -> list[Event]:
        """Going out: no discard; the tops and the outs (pending pays are called with them)."""
        self.verify_go_out(seat)
        mark = len(self.events)
        self._finish(seat, "went out")
        return self.events[mark:]

    def _finish(self, winner: int, reason: str) -> None:
        w = self.seats[winner]
        if w.pending:
            self._collect(winner)
        stake = w.chips  # house pays rule 5C: the tops may not build up the outs
        self._log(WentOut(winner))
        w.status = Status.OUT
        self.winner = winner
        self._award_tops(winner)
        outs = self.rules.outs_chips
        extra = self.spread_value(winner) if self.rules.repay_conditions_on_out else 0
        for i, s in enumerate(self.seats):
            if i == winner:
                continue
            if s.status in (Status.IN, Status.SELF_FOULED) or (
                    s.status is Status.FOULED and s.pays_outs_when_fouled):
                due = outs + extra * self.multiplier(winner, i)
                self._move(i, winner, min(due, stake, s.chips), "outs")
            elif s.status is Status.FOULED:
                due = s.foul_value + 2
                self._move(i, winner, min(due, stake, s.chips),
                           "foul hand: value as it lies plus 2 (foul rule 1B)")
        self._end(winner, reason, None)

    def _award_tops(self, winner: int) -> None:
        w = self.seats[winner]
        self._move(None, winner, self.tops_single, "tops")
        self.tops_single = 0
        if w.doubles:
            self._move(None, winner, self.tops_double, "double tops")
        else:
            for i, c in self.double_contrib.items():
                self._move(None, i, c, "double tops returned: won by a singles player")
        self.tops_double = 0

    def _award_tops_alone(self, winner: int, reason: str) -> None:
        self.winner = winner
        self._award_tops(winner)
        self._end(winner, reason, None)

    def _end(self, winner: int | None, reason: str, split_with: int | None) -> None:
        self.phase = Phase.COMPLETE
        self.current = None
        self.end_reason = reason
        self._log(HandEnded(winner, reason, split_with))

    def _after_status_change(self) -> None:
        if self.phase is not Phase.PLAYING:
            return
        live = self.in_players()
        if self.current is not None and self.seats[self.current].status is not Status.IN:
            if self.drawn is not None and self.drawn_kind == "stock":
                # house rule 16: the card drawn stays live for the next player
                self.discards.append(DiscardEntry(self.drawn, self.current, True))
                self.last_discarder = self.current
            self.drawn = None
            self.turn_started = False
            self.forced_discard = None
            nxt = self.next_in(self.current)
            self.current = nxt
        if self.forced_discard is not None and \
                self.seats[self.forced_discard].status is not Status.IN:
            self.forced_discard = None
        if len(live) == 1:
            if any(s.status is Status.FOULED for s in self.seats) and not self.face_up:
                self.phase = Phase.LAST_PLAYER
                self.current = live[0]
            else:
                self._finish(live[0], "last player in the hand")

    # ----- the stock runs out ----------------------------------------------------------------

    def verify_reshuffle_stock(self, order: Sequence[Card]) -> None:
        self._open()
        _check(not self.stock, R.STOCK_OUT, "the stock is not out")
        pile = [d.card for d in self.discards[:-1]]
        _check(Counter(order) == Counter(pile), R.STOCK_OUT,
               "the new stock must be the discards except the top card, shuffled")

    def can_reshuffle_stock(self, order: Sequence[Card]) -> bool:
        return self._can(self.verify_reshuffle_stock, order)

    @action
    def reshuffle_stock(self, order: Sequence[Card]) -> list[Event]:
        """The discard pile except its top card, shuffled (`order`, top first) is the new
        stock; if that leaves no stock the hand is void and every top is returned."""
        self.verify_reshuffle_stock(order)
        mark = len(self.events)
        if not order:
            for i, c in self.single_contrib.items():
                self._move(None, i, c, "void hand: top returned")
            for i, c in self.double_contrib.items():
                self._move(None, i, c, "void hand: double top returned")
            self.tops_single = self.tops_double = 0
            self._end(None, "void: the stock ran out", None)
            return self.events[mark:]
        self.discards = self.discards[-1:]
        self._live = [d for d in self._live if d is self.discards[-1]]
        self.stock = list(order)[::-1]
        self._log(StockReshuffled(len(order)))
        return self.events[mark:]

    # ----- fouls (house foul rules 1-8, 15, 16) -----------------------------------------------

    def _irregular(self, seat: int, cause: Cause, detail: str) -> None:
        s = self.seats[seat]
        if cause not in s.causes:
            s.causes.append(cause)
        self._log(Irregularity(seat, cause.value, detail))

    def verify_call_foul(self, caller: int | None, seat: int) -> None:
        self._open()
        s = self._seat(seat)
        if caller is not None:
            c = self._seat(caller)
            _check(c.status is Status.IN and caller != seat, R.FOUL_4,
                   "only another active player may call a hand foul")
        if s.status is not Status.IN:
            raise PanRuleError(R.FOUL_3, f"seat {seat} is not an active hand")
        if not (bool(s.causes)):
            raise PanRuleError(R.FOUL_3, f"seat {seat}'s hand gives no cause to call it foul")

    def can_call_foul(self, caller: int | None, seat: int) -> bool:
        return self._can(self.verify_call_foul, caller, seat)

    @action
    def call_foul(self, caller: int | None, seat: int) -> list[Event]:
        """A hand called foul for cause (rule 3): it repays its collections to the active
        hands, is thrown in, and at the end pays the winner its value as it lies plus 2
        (no bust-out), or the outs for a false declaration of going out (3F)."""
        self.verify_call_foul(caller, seat)
        mark = len(self.events)
        s = self.seats[seat]
        self._log(FoulCalled(caller, seat, tuple(c.value for c in s.causes), False))
        if self.false_out == seat:
            others = [i for i in self.in_players() if i != seat]
            if others and all(self.seats[i].threw_in for i in others):
                self._redeal("one player caused every other active player to foul (rule 6)")
                return self.events[mark:]
            self.false_out = None
            for x in self.seats:
                x.threw_in = False
        self._apply_foul(seat)
        return self.events[mark:]

    def _apply_foul(self, seat: int) -> None:
        s = self.seats[seat]
        for p, paid in list(s.collected.items()):
            if self.seats[p].status is Status.IN and paid > 0:
                self._move(seat, p, min(paid, s.chips), "foul hand repays collections")
        s.collected.clear()
        s.foul_value = self.spread_value(seat)
        s.pays_outs_when_fouled = Cause.FALSE_OUT in s.causes
        s.status = Status.FOULED
        s.pending = []
        if self.forced_discard == seat:
            self.forced_discard = None
        if self.current == seat:
            self.drawn = None
            self.turn_started = False
            self.current = self.next_in(seat)
        self._after_status_change()

    def _redeal(self, reason: str) -> None:
        """The tops stay for the redeal; every other chip moved in the hand goes back."""
        for ev in list(self.events):
            if isinstance(ev, ChipsMoved) and ev.payer is not None and ev.payee is not None:
                self._move(ev.payee, ev.payer, ev.chips, "redeal: returned")
        self.tops_carry = (self.tops_single, self.tops_double)
        self.tops_single = self.tops_double = 0
        self._end(None, reason, None)

    def verify_declare_own_foul(self, seat: int) -> None:
        self._open()
        s = self._seat(seat)
        if not (s.status is Status.IN and self.phase is Phase.PLAYING):
            raise PanRuleError(R.FOUL_2, f"seat {seat} is not an active hand")

    @action
    def declare_own_foul(self, seat: int) -> list[Event]:
        """Rule 2: a player who calls his own hand foul and throws it in still pays every
        collection for the rest of the hand, bust-out included; rule 16: a card he drew stays
        live."""
        self.verify_declare_own_foul(seat)
        mark = len(self.events)
        s = self.seats[seat]
        s.status = Status.SELF_FOULED
        s.pending = []
        self._log(FoulCalled(seat, seat, (), True))
        self._after_status_change()
        return self.events[mark:]

    def verify_floor_foul(self, seat: int) -> None:
        self._open()
        if self._seat(seat).status is not Status.IN:
            raise PanRuleError(R.FOUL_3, f"seat {seat} is not active")

    @action
    def floor_foul(self, seat: int, reason: str) -> list[Event]:
        """Rule 7: the floorman declares a hand foul under extraordinary circumstances."""
        self.verify_floor_foul(seat)
        mark = len(self.events)
        self._irregular(seat, Cause.FLOORMAN, reason)
        self.call_foul(None, seat)
        return self.events[mark:]

    # irregularities: what a player physically does wrong, recorded so it can be called

    def verify_extra_discard(self, seat: int, card: Card) -> None:
        self._open()
        s = self._seat(seat)
        _check(s.status is Status.IN and self.last_discarder == seat and not self.turn_started,
               R.FOUL_3, "only the player who just discarded can discard twice")
        if card not in s.hand:
            raise PanRuleError(R.FOUL_3, f"seat {seat} does not hold {card}")

    @action
    def extra_discard(self, seat: int, card: Card) -> list[Event]:
        """3B: a second discard (a cause for calling the hand foul)."""
        self.verify_extra_discard(seat, card)
        mark = len(self.events)
        self.seats[seat].hand.remove(card)
        self.discards.append(DiscardEntry(card, seat, False, touched=True))
        self._irregular(seat, Cause.DISCARD_COUNT, f"discarded {card} as a second discard")
        return self.events[mark:]

    def verify_skip_discard(self, seat: int) -> None:
        self._verify_turn(seat)
        _check(self.turn_started and self.drawn is None and self.current == seat, R.FOUL_3,
               "nothing to skip")
        _check(bool(self.seats[seat].hand), R.TURN_5, "an empty hand goes out")

    @action
    def skip_discard(self, seat: int) -> list[Event]:
        """3B: failing to discard (the turn passes; a cause for calling the hand foul)."""
        self.verify_skip_discard(seat)
        mark = len(self.events)
        self._lose_pending(seat)
        self._irregular(seat, Cause.DISCARD_COUNT, "ended the turn without a discard")
        self._end_turn(seat)
        return self.events[mark:]

    def verify_drop_card(self, seat: int, card: Card) -> None:
        self._open()
        s = self._seat(seat)
        if not (s.status is Status.IN and card in s.hand):
            raise PanRuleError(R.FOUL_3, f"seat {seat} does not hold {card}")

    @action
    def drop_card(self, seat: int, card: Card) -> list[Event]:
        """3C: a card thrown on the floor to correct the count."""
        self.verify_drop_card(seat, card)
        mark = len(self.events)
        self.seats[seat].hand.remove(card)
        self.floor.append(card)
        self._irregular(seat, Cause.FLOOR, f"threw {card} on the floor")
        return self.events[mark:]

    def verify_spread_invalid(self, seat: int, cards: Sequence[Card],
                              use_drawn: bool = False) -> None:
        s = self._verify_meld_turn(seat, use_drawn)
        if not (_take_cards(s.hand, cards) is not None):
            raise PanRuleError(R.MELDS, f"seat {seat} lacks those cards")
        allc = (*cards, *((self.drawn,) if use_drawn and self.drawn else ()))
        _check(meld_kind(allc) is None, R.MELDS, "that is a valid meld: use meld")

    @action
    def spread_invalid(self, seat: int, cards: Sequence[Card],
                       use_drawn: bool = False) -> list[Event]:
        """3D: an invalid meld spread (primary with the deck card, secondary from the hand).
        It pays nothing; it becomes a cause if still uncorrected when the player next
        touches the deck."""
        self.verify_spread_invalid(seat, cards, use_drawn)
        mark = len(self.events)
        s = self.seats[seat]
        rest = _take_cards(s.hand, cards)
        assert rest is not None
        s.hand = rest
        deck_card = self._use_drawn() if use_drawn else None
        allc = (*cards, *((deck_card,) if deck_card else ()))
        s.melds.append(BoardMeld(tuple(allc), None, use_drawn, deck_card))
        self.turn_actions += 1
        self._log(Melded(seat, len(s.melds) - 1, tuple(allc), "invalid spread", False))
        return self.events[mark:]

    def verify_correct_meld(self, seat: int, meld: int, cards: Sequence[Card]) -> None:
        self._open()
        s = self._seat(seat)
        if s.status is not Status.IN:
            raise PanRuleError(R.FOUL_3, f"seat {seat} is not active")
        _check(0 <= meld < len(s.melds) and not s.melds[meld].valid, R.FOUL_3,
               "no invalid meld there")
        m = s.melds[meld]
        _check(not (s.touched_deck and self.turn_started and self.current == seat
                    and Cause.INVALID_MELD in s.causes), R.FOUL_3,
               "too late: the player has touched the deck")
        if not cards:
            _check(not m.primary, R.FOUL_3,
                   "a primary meld holds a card from the deck: correct it as it lies")
            return
        pool = list(m.cards) + list(s.hand)
        _check(_take_cards(pool, cards) is not None, R.FOUL_3,
               "the corrected meld must use the meld's cards and the hand")
        if m.deck_card is not None:
            _check(m.deck_card in cards, R.FOUL_3, "the deck card must stay in the meld")
        _check(meld_kind(cards) is not None, R.FOUL_3, "the correction is still no meld")

    @action
    def correct_meld(self, seat: int, meld: int, cards: Sequence[Card]) -> list[Event]:
        """3D a/b: a primary invalid meld corrected as it lies (the deck card stays in it);
        a secondary one taken back into the hand (`cards` empty), before touching the deck."""
        self.verify_correct_meld(seat, meld, cards)
        mark = len(self.events)
        s = self.seats[seat]
        m = s.melds[meld]
        pool = list(m.cards) + list(s.hand)
        if not cards:
            s.hand.extend(m.cards)
            del s.melds[meld]
            self._log(Melded(seat, meld, (), "taken back into the hand", True))
        else:
            rest = _take_cards(pool, cards)
            assert rest is not None
            kind = meld_kind(cards)
            assert kind is not None
            s.hand = rest
            s.melds[meld] = BoardMeld(sort_meld(cards, kind), kind, m.primary, m.deck_card)
            self._log(Melded(seat, meld, s.melds[meld].cards, "corrected", True))
            self._hit(seat, meld, lay_down_units(cards, kind, self.rules), "corrected meld")
        return self.events[mark:]

    def verify_keep_drawn(self, seat: int) -> None:
        self._verify_meld_turn(seat, True)

    @action
    def keep_drawn(self, seat: int) -> list[Event]:
        """3E: the deck card put in the hand (allowed only when going out: never here)."""
        self.verify_keep_drawn(seat)
        mark = len(self.events)
        card = self._use_drawn()
        self.seats[seat].hand.append(card)
        self._irregular(seat, Cause.DECK_CARD_IN_HAND, f"put {card} in the hand")
        return self.events[mark:]

    def verify_declare_out(self, seat: int) -> None:
        self._verify_turn(seat)
        _check(self.turn_started and self.current == seat, R.TURN_5, "in one's own turn")
        _check(not self.can_go_out(seat), R.TURN_5, "the player is out: use go_out")

    @action
    def declare_out(self, seat: int) -> list[Event]:
        """3F: a false declaration of going out. Others may throw in their hands (rule 6)."""
        self.verify_declare_out(seat)
        mark = len(self.events)
        self.false_out = seat
        self._irregular(seat, Cause.FALSE_OUT, "declared out without eleven melded cards")
        return self.events[mark:]

    def verify_throw_in(self, seat: int) -> None:
        self._open()
        _check(self.false_out is not None and self.false_out != seat, R.FOUL_3,
               "no false declaration of going out to answer")
        if self._seat(seat).status is not Status.IN:
            raise PanRuleError(R.FOUL_3, f"seat {seat} is not active")

    @action
    def throw_in(self, seat: int) -> list[Event]:
        """A player gathers his cards after a false declaration of going out (3F)."""
        self.verify_throw_in(seat)
        self.seats[seat].threw_in = True
        self._log(Irregularity(seat, "threw in", f"after seat {self.false_out}'s false out"))
        return self.events[-1:]

    def verify_remove_board_card(self, seat: int, meld: int, card: Card) -> None:
        self._open()
        s = self._seat(seat)
        _check(s.status is Status.IN and 0 <= meld < len(s.melds)
               and card in s.melds[meld].cards, R.RULE_15, "no such card on that spread")

    @action
    def remove_board_card(self, seat: int, meld: int, card: Card) -> list[Event]:
        """Rule 15: removing or discarding a card from a board spread fouls the hand; the
        dealer enforces it (the hand is fouled at once)."""
        self.verify_remove_board_card(seat, meld, card)
        mark = len(self.events)
        s = self.seats[seat]
        cards = list(s.melds[meld].cards)
        cards.remove(card)
        s.melds[meld].cards = tuple(cards)
        self.discards.append(DiscardEntry(card, seat, False, touched=True))
        self._irregular(seat, Cause.BOARD_CARD, f"removed {card} from a board spread")
        self.call_foul(None, seat)
        return self.events[mark:]

    # ----- rule 5: one player left after fouls -------------------------------------------------

    def verify_settle(self, seat: int, payments: dict[int, int]) -> None:
        self._open()
        _check(self.phase is Phase.LAST_PLAYER and self.current == seat, R.FOUL_5,
               "settling is for the one player left after fouls")
        for p, c in payments.items():
            if not (0 <= p < self.n and self.seats[p].status is Status.FOULED):
                raise PanRuleError(R.FOUL_5, f"seat {p} has no foul hand to settle")
            if not (0 <= c <= self.seats[p].chips):
                raise PanRuleError(R.PAYS_5, f"seat {p} has no {c} chips")

    @action
    def settle(self, seat: int, payments: dict[int, int]) -> list[Event]:
        """5A: a settlement agreed with the foul hands; the player takes the tops."""
        self.verify_settle(seat, payments)
        mark = len(self.events)
        for p, c in payments.items():
            self._move(p, seat, c, "negotiated settlement (foul rule 5A)")
        self.winner = seat
        self._award_tops(seat)
        self._end(seat, "settled with the foul hands", None)
        return self.events[mark:]

    def verify_play_face_up(self, seat: int) -> None:
        self._open()
        _check(self.phase is Phase.LAST_PLAYER and self.current == seat, R.FOUL_5,
               "only the one player left after fouls plays face up")

    @action
    def play_face_up(self, seat: int) -> list[Event]:
        """5B: play the hand out face up, under the dealer's supervision."""
        self.verify_play_face_up(seat)
        self.face_up = True
        self.phase = Phase.PLAYING
        self._log(Irregularity(seat, "face up", "plays the hand out face up (foul rule 5B)"))
        return self.events[-1:]

    # ----- forcing (house rules 11-14) ----------------------------------------------------------

    def _out_force_allowed(self, seat: int, card: Card, entry: DiscardEntry,
                           case_a: bool) -> bool:
        """Rule 14: an out card may be forced back only (A) against a pyramid attempt,
        (B) when it puts two players out, on the one who goes out for less, (C) head up."""
        if self.head_up:
            return True
        if case_a:
            return True
        others = [i for i in self.in_players() if i != seat and self.goes_out_with(i, card)]
        return any(self.out_value(seat, card) < self.out_value(i, card) for i in others)

    def verify_force_option_card(self, forcer: int, use: bool) -> None:
        self._open()
        f = self._seat(forcer)
        cur = self.current
        _check(self.phase is Phase.PLAYING and cur is not None, R.RULE_12, "no turn in progress")
        assert cur is not None
        _check(f.status is Status.IN and forcer != cur, R.RULE_12,
               "only another active player may force the option card")
        _check(self.drawn_kind == "stock" and self.drawn is not None and self.turn_actions == 0
               and not self.option_resolved, R.RULE_12,
               "the option card is forced right after the player touches the deck")
        top = self.discards[-1] if self.discards else None
        _check(top is not None and top.from_stock and top.seat == self.last_discarder, R.RULE_12,
               "there is no option card")
        assert top is not None
        _check(top.seat != forcer, R.RULE_11,
               "the player who discarded the card has lost the right to force it")
        s = self.seats[cur]
        strict = self.rules.strict_set_additions
        if not any(m.kind is not None and fits(m.cards, m.kind, top.card, strict)
                   for m in s.melds):
            raise PanRuleError(R.RULE_12, f"{top.card} fits none of the player's spreads")
        if use and self.goes_out_with(cur, top.card):
            _check(self._out_force_allowed(cur, top.card, top, False), R.RULE_14,
                   "that card would put the player out")

    def can_force_option_card(self, forcer: int, use: bool) -> bool:
        return self._can(self.verify_force_option_card, forcer, use)

    @action
    def force_option_card(self, forcer: int, use: bool) -> list[Event]:
        """Rule 12: a player who overlooked a usable card and touched the deck is forced
        either to use it (the drawn card goes back on the stock) or to continue."""
        self.verify_force_option_card(forcer, use)
        mark = len(self.events)
        cur = self.current
        assert cur is not None
        self.option_resolved = True
        top = self.discards[-1]
        if not use:
            self._log(Forced(forcer, cur, top.card, R.RULE_12, "forced to continue to draw"))
            return self.events[mark:]
        self._drop_live(self.discards.pop())
        drawn = self._use_drawn()
        self.stock.append(drawn)
        self.drawn_kind = "taken"
        self._log(Forced(forcer, cur, top.card, R.RULE_12, "forced to use the option card"))
        s = self.seats[cur]
        mi = next(i for i, m in enumerate(s.melds) if m.kind is not None
                  and fits(m.cards, m.kind, top.card, self.rules.strict_set_additions))
        self.turn_actions += 1
        self._add_to_meld(cur, mi, top.card, "forced lay off")
        if not s.hand:
            self._finish(cur, "went out on a forced card")
        return self.events[mark:]

    def _force_back_entry(self, seat: int) -> DiscardEntry | None:
        """The seat's latest discard still in the pile and still forceable (rule 13)."""
        for d in reversed(self._live):
            if d.seat == seat:
                return d
        return None

    def verify_force_back(self, forcer: int, seat: int) -> None:
        self._open()
        f = self._seat(forcer)
        s = self._seat(seat)
        _check(self.phase is Phase.PLAYING, R.RULE_13, "no hand in play")
        _check(f.status is Status.IN and forcer != seat and s.status is Status.IN, R.RULE_13,
               "only another active player may force a card back on an active hand")
        _check(self.forced_discard is None, R.RULE_13, "a forced discard is pending")
        d = self._force_back_entry(seat)
        if not (d is not None):
            raise PanRuleError(R.RULE_13, f"seat {seat} has no discard to force back")
        assert d is not None
        if d.from_stock:
            _check(len(d.drawers) < 2, R.RULE_13,
                   "two players have drawn behind: the card can no longer be forced back")
            _check(forcer not in d.drawers or self.head_up, R.RULE_13,
                   "a player who has drawn since has lost the right to force it back")
        else:
            _check(not d.touched, R.RULE_13,
                   "the player has touched the deck: his hand discard can no longer be forced")
        strict = self.rules.strict_set_additions
        if not any(m.kind is not None and fits(m.cards, m.kind, d.card, strict)
                   for m in s.melds):
            raise PanRuleError(R.RULE_13, f"{d.card} fits none of seat {seat}'s melds")
        if not s.hand and not (self._out_force_allowed(seat, d.card, d, d.from_stock)):
            raise PanRuleError(R.RULE_14, f"{d.card} is an out card for seat {seat}")

    def can_force_back(self, forcer: int, seat: int) -> bool:
        return self._can(self.verify_force_back, forcer, seat)

    @action
    def force_back(self, forcer: int, seat: int) -> list[Event]:
        """Rule 13: a card that fits the discarder's own spread is forced back onto it; the
        player then discards again from the hand (or is out, rule 14)."""
        self.verify_force_back(forcer, seat)
        mark = len(self.events)
        d = self._force_back_entry(seat)
        assert d is not None
        self.discards.remove(d)
        self._drop_live(d)
        s = self.seats[seat]
        mi = next(i for i, m in enumerate(s.melds) if m.kind is not None
                  and fits(m.cards, m.kind, d.card, self.rules.strict_set_additions))
        self._log(Forced(forcer, seat, d.card, R.RULE_13, "forced back onto the spread"))
        self._add_to_meld(seat, mi, d.card, "forced back")
        if not s.hand:
            if self.current == seat:
                self.turn_started = False
            self._finish(seat, "went out on a card forced back")
        else:
            self.forced_discard = seat
        return self.events[mark:]

    # ----- splitting the tops (house pays rule 2) -----------------------------------------------

    def verify_offer_split(self, seat: int) -> None:
        self._open()
        _check(self.phase is Phase.PLAYING and len(self.in_players()) == 2
               and self.seats[seat].status is Status.IN, R.PAYS_2,
               "only two players remaining in action may split the tops")

    @action
    def offer_split(self, seat: int) -> list[Event]:
        self.verify_offer_split(seat)
        self.split_offer = seat
        self._log(Irregularity(seat, "split offered", "offers to split the tops"))
        return self.events[-1:]

    def verify_accept_split(self, seat: int) -> None:
        self.verify_offer_split(seat)
        _check(self.split_offer is not None and self.split_offer != seat, R.PAYS_2,
               "no offer from the other player")

    def can_accept_split(self, seat: int) -> bool:
        return self._can(self.verify_accept_split, seat)

    @action
    def accept_split(self, seat: int) -> list[Event]:
        """Both agree: the single tops are split; doubles split the double tops only between
        two doubles players (a doubles player and a singles player split only the singles).
        An odd chip goes to the player whose turn is next."""
        self.verify_accept_split(seat)
        mark = len(self.events)
        a, b = self.in_players()
        first = self.current if self.current in (a, b) else a
        second = b if first == a else a
        half, odd = divmod(self.tops_single, 2)
        self._move(None, first, half + odd, "split tops")
        self._move(None, second, half, "split tops")
        self.tops_single = 0
        da, db = self.seats[first].doubles, self.seats[second].doubles
        if da and db:
            h, o = divmod(self.tops_double, 2)
            self._move(None, first, h + o, "split double tops")
            self._move(None, second, h, "split double tops")
        elif da or db:
            self._move(None, first if da else second, self.tops_double, "double tops")
        else:
            for i, c in self.double_contrib.items():
                self._move(None, i, c, "double tops returned")
        self.tops_double = 0
        self._end(None, "tops split", second)
        return self.events[mark:]

    # ----- generic ----------------------------------------------------------------------------

    @staticmethod
    def _can(fn: Callable[..., None], *args: Any) -> bool:
        try:
            fn(*args)
        except PanRuleError:
            return False
        return True

    def chips_delta(self) -> list[int]:
        return [s.chips - s.start_chips for s in self.seats]

    def snapshot(self, viewer: int | None) -> dict[str, Any]:
        """What `viewer` may see: his own hand, everyone's melds, the exposed drawn card, the
        top discard and counts; other hands only when played face up (foul rule 5B)."""
        seats = []
        for i, s in enumerate(self.seats):
            show = i == viewer or (self.face_up and s.status is Status.IN)
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


def conditions_in(cards: Iterable[Card], kind: MeldKind) -> list[str]:
    return [str(c) for c in conditions_of(cards, kind)]
