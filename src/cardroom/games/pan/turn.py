"""The turn: draw or take, calling collections, exactly one discard, going out, and the stock
running out (reference: a turn, 1, 4, 5; house rules 11, 17; house pays rule 1)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from cardroom.cards import Card
from cardroom.engine import able, action

from . import errors as R
from .ending import EndingMixin
from .errors import PanRuleError
from .events import Discarded, Drew, Event, Irregularity, StockReshuffled, Took
from .rules import HAND_SIZE
from .state import IN, PLAYING, Cause, DiscardEntry, SeatState, check


class TurnMixin(EndingMixin):
    """Drawing, taking, calling collections, discarding, going out, the stock running out."""

    # ----- the turn: drawing (A turn, 1) --------------------------------------------------

    def _verify_turn(self, seat: int) -> SeatState:
        self._open()
        s = self._seat(seat)
        if self.phase is not PLAYING:
            raise PanRuleError(R.TURN_1, f"no turn now: the hand is {self.phase}")
        if not (self.forced_discard is None or self.forced_discard == seat):
            raise PanRuleError(
                R.RULE_13,
                f"seat {self.forced_discard} must first discard after a forced card")
        if not (self.current == seat or self.forced_discard == seat):
            raise PanRuleError(R.TURN_1, f"it is seat {self.current}'s turn, not seat {seat}'s")
        if s.status is not IN:
            raise PanRuleError(R.TURN_1, f"seat {seat} is not in the hand")
        return s

    def verify_draw(self, seat: int) -> None:
        self._verify_turn(seat)
        check(self.forced_discard is None, R.RULE_13, "a forced discard comes first")
        check(not self.turn_started, R.TURN_1, "one draw a turn")
        check(self.false_out is None, R.FOUL_3, "a false declaration of going out is pending")
        check(not self.tops_waiting(), R.DECLARATIONS,
              "every other player has passed: take the tops")
        check(bool(self.stock), R.STOCK_OUT, "the stock is out: reshuffle the discards first")

    can_draw = able(verify_draw)

    @action
    def draw(self, seat: int) -> list[Event]:
        """Draw the top of the stock; it is turned face up for everyone (house rule 10)."""
        mark = len(self.events)
        card = self._from_stock()
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
        count, invalid = len(s.hand), False
        for m in s.melds:  # one pass: the card count and any invalid meld
            count += len(m.cards)
            invalid = invalid or m.kind is None
        if count != HAND_SIZE and Cause.WRONG_COUNT not in s.causes:
            s.causes.append(Cause.WRONG_COUNT)
        if invalid and Cause.INVALID_MELD not in s.causes:
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
        check(self.forced_discard is None, R.RULE_13, "a forced discard comes first")
        check(not self.turn_started, R.TURN_1, "one draw a turn")
        check(self.false_out is None, R.FOUL_3, "a false declaration of going out is pending")
        top = self.option_card()
        check(top is not None, R.TURN_1,
              "only the previous player's unused stock card may be taken; a card discarded "
              "from the hand is dead")
        assert top is not None
        if not (bool(self.card_uses(seat, top.card))):
            raise PanRuleError(
                R.TURN_1,
                f"{top.card} cannot be melded at once, so it may not be taken")

    can_take = able(verify_take)

    @action
    def take(self, seat: int) -> list[Event]:
        """Take the previous player's unused stock card, only to meld it at once."""
        mark = len(self.events)
        entry = self.discards.pop()
        self._drop_live(entry)
        self._start_turn(seat, entry.card, "taken")
        self._log(Took(seat, entry.card))
        return self.events[mark:]

    # ----- discarding and going out (A turn, 4-5; house rules 11, 17) ----------------------

    # ----- calling collections (Conditions; house pays rules 1 and 5) ---------------------

    def verify_collect(self, seat: int) -> None:
        self._open()
        s = self._seat(seat)
        if s.status is not IN:
            raise PanRuleError(R.PAYS_1, f"seat {seat} is not in the hand")
        check(bool(s.pending), R.PAYS_1, "nothing to collect: no condition laid down")

    can_collect = able(verify_collect)

    @action
    def collect(self, seat: int) -> list[Event]:
        """Call for pay: from every player still in, commensurate with the chips the collector
        has on the table (table stakes); any shortfall is owed and may be asked for again each
        time the collector's hand is hit."""
        mark = len(self.events)
        self._collect(seat)
        self._after_status_change()
        return self.events[mark:]

    def verify_discard(self, seat: int, card: Card) -> None:
        self._verify_turn(seat)
        if self.forced_discard == seat:
            self._check_holds(seat, (card,), R.RULE_13)
            return
        check(self.turn_started, R.TURN_4, "draw first")
        check(self.false_out is None or self.false_out == seat, R.FOUL_3,
              "a false declaration of going out is pending")
        if self.drawn is not None:
            if not (card == self.drawn):
                raise PanRuleError(
                    R.TURN_2,
                    f"a drawn card never goes into the hand: discard {self.drawn} or meld it")
            check(self.drawn_kind == "stock", R.TURN_1,
                  "a card taken from the previous player must be melded at once")
            nxt = self.next_in(seat)
            if nxt is not None and nxt != seat and not self.seats[nxt].hand \
                    and self.card_uses(seat, card) and self.goes_out_with(nxt, card):
                raise PanRuleError(
                    R.RULE_17,
                    f"{card} would put seat {nxt} (ten cards spread) out and can be used here")
            if self.face_up and self.card_uses(seat, card):
                # foul rule 5B: face up, "using any and all cards which may be used in the
                # quickest way to put the hand out"
                raise PanRuleError(R.FOUL_5, f"played face up, every card that can be used "
                                   f"must be used: {card} can be melded")
        else:
            self._check_holds(seat, (card,), R.TURN_4)
            usable = self.hand_uses(seat) if self.face_up else []
            if usable:
                # foul rule 5B: every card of the face-up hand that can be used is used first
                raise PanRuleError(R.FOUL_5, f"played face up, every card that can be used "
                                   f"must be used before discarding: {usable[0][0]} can be "
                                   "melded")

    can_discard = able(verify_discard)

    def legal_discards(self, seat: int) -> list[Card]:
        """The cards `seat` may discard now, `verify_discard`'s answer for each asked once:
        the drawn card while one is up (the discard that would take a drawn card from the
        hand discards it), else his hand's cards each once, in hand order, all or none (a
        forced discard, rule 13: any; a face-up hand, foul rule 5B: none while a card can
        be used)."""
        if self.drawn is not None and self.forced_discard != seat:
            return [self.drawn] if self.can_discard(seat, self.drawn) else []
        try:
            self._verify_turn(seat)
        except PanRuleError:
            return []
        cards = list(dict.fromkeys(self.seats[seat].hand))
        if self.forced_discard == seat:
            return cards
        if not self.turn_started or self.false_out not in (None, seat) \
                or (self.face_up and self.hand_uses(seat)):
            return []
        return cards

    @action
    def discard(self, seat: int, card: Card) -> list[Event]:
        """Exactly one discard ends the turn; uncalled collections are lost."""
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
        self._add_discard(DiscardEntry(card, seat, from_stock, chosen=True))
        self._log(Discarded(seat, card, from_stock))
        if self.false_out == seat:
            self._clear_false_out()
        self._end_turn(seat)
        return self.events[mark:]

    def _add_discard(self, entry: DiscardEntry) -> None:
        self.discards.append(entry)
        self._live.append(entry)

    def _drop_live(self, entry: DiscardEntry) -> None:
        self._live = [d for d in self._live if d is not entry]

    def _end_turn(self, seat: int) -> None:
        s = self.seats[seat]
        if s.kept_drawn:
            # foul rule 3E: the deck card kept in the hand is a cause once the player ends his
            # turn without going out (going out has no discard, the exception)
            s.kept_drawn = False
            if Cause.DECK_CARD_IN_HAND not in s.causes:
                s.causes.append(Cause.DECK_CARD_IN_HAND)
            self._log(Irregularity(seat, Cause.DECK_CARD_IN_HAND.value,
                                   "kept the deck card and did not go out"))
        self.last_discarder = seat
        self.turn_started = False
        self.drawn = None
        self.drawn_kind = None
        if self.phase is PLAYING:
            self.current = self.next_in(seat)

    def verify_go_out(self, seat: int) -> None:
        s = self._verify_turn(seat)
        check(self.current == seat and self.turn_started, R.TURN_5, "go out in one's own turn")
        check(self.drawn is None and not s.hand, R.TURN_5,
              "going out takes all ten cards and the drawn card melded")
        check(s.melded_count == HAND_SIZE + 1, R.TURN_5,
              "going out takes eleven melded cards")
        check(all(m.valid for m in s.melds), R.TURN_5, "every meld must be valid")

    can_go_out = able(verify_go_out)

    @action
    def go_out(self, seat: int) -> list[Event]:
        """Going out: no discard; the tops and the outs (pending pays are called with them)."""
        mark = len(self.events)
        self._finish(seat, "went out")
        return self.events[mark:]

    # ----- the stock runs out ----------------------------------------------------------------

    def verify_reshuffle_stock(self, order: Sequence[Card]) -> None:
        self._open()
        check(not self.stock, R.STOCK_OUT, "the stock is not out")
        pile = [d.card for d in self.discards[:-1]]
        check(Counter(order) == Counter(pile), R.STOCK_OUT,
              "the new stock must be the discards except the top card, shuffled")

    can_reshuffle_stock = able(verify_reshuffle_stock)

    @action
    def reshuffle_stock(self, order: Sequence[Card]) -> list[Event]:
        """The discard pile except its top card, shuffled (`order`, top first) is the new
        stock; if that leaves no stock the hand is void and every top is returned."""
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
        self._new_stock(order)
        self._log(StockReshuffled(len(order)))
        return self.events[mark:]
