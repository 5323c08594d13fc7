"""The multi-seat Super Pan 9 table as a state machine following the engine protocol
(`cardroom.engine`): every action checks everything first (`verify_x` raises a `RuleError`
naming the clause and changes nothing), then applies itself and returns a frozen event
appended to `events`.

A round (a seeded shuffle, for the example only; live tables shuffle with the OS CSPRNG): seat 1
wagers $10, stands on 7 and beats the dealer's 3; the win pays even money less the 5%
commission.

>>> from cardroom.games.super_pan_9.rules import SuperPan9Rules
>>> from cardroom.shoe import SeededRandom
>>> table = SuperPan9Table(SuperPan9Rules(), SeededRandom(1))
>>> table.sit(1, 10_000)
>>> _ = table.place_wager(1, 1_000)
>>> _ = table.deal()
>>> " ".join(map(str, table.seats[1].cards)), table.seats[1].total
('5s Jh 2h', 7)
>>> _ = table.stand(1)
>>> settled = table.finish_dealer()
>>> " ".join(map(str, table.dealer_cards)), table.dealer_total
('5d 3d 5d Kc', 3)
>>> settled.seats[0].settlement.outcome.value, table.chips
('win', {1: 10950})

Through the engine protocol (`cardroom.engine`): the round is over and settled; the table's
own step, a new round, comes next.

>>> table.is_over(), table.settlement(), table.seats_to_act(), table.legal_actions()
(True, {1: 950}, ('table',), [Action(name='new_round', args=(), seat='table')])
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from cardroom import engine as protocol
from cardroom.cards import Card
from cardroom.engine import NO_WAGER, Engine, Event, RuleError, WagerRefused, able, action
from cardroom.money import Cents, format_money, require_cents
from cardroom.shoe import RandomSource, Shoe

from .cards import hand_total
from .events import (
    DEAL,
    DEALER,
    IRREGULARITIES,
    ONE_CARD,
    SETTLEMENT,
    WAGERS,
    DealerDrew,
    DealerRevealed,
    HandsDealt,
    IrregularityHandled,
    IrregularityKind,
    PlayerDrew,
    PlayerStood,
    RoundSettled,
    RoundStarted,
    SeatSettled,
    ShoeShuffled,
    WagerPlaced,
    WagersWithdrawn,
)
from .rules import DEALER_DRAWS, MAX_SEATS, IrregularityPolicy, SuperPan9Rules
from .settlement import Settlement, settle, void_settlement


def dealer_must_draw(total: int) -> bool:
    """Rule 7 i/ii (the table `DEALER_DRAWS`)."""
    return DEALER_DRAWS[total]


def cards_for_round(seats: int) -> int:
    """The most cards a round can use: four per seat and four for the dealer."""
    return 4 * (seats + 1)


class Phase(StrEnum):
    BETTING = "betting"
    PLAYERS = "players"
    DEALER = "dealer"
    REVEALED = "revealed"
    COMPLETE = "complete"


@dataclass
class SeatHand:
    wager: Cents
    tie_wager: Cents
    cards: list[Card] = field(default_factory=list)
    acted: bool = False
    drew: bool = False
    voided: bool = False
    settlement: Settlement | None = None

    @property
    def total(self) -> int:
        return hand_total(self.cards)


class SuperPan9Table(Engine):
    """One table: a shoe dealt through to its cut card, and one round at a time."""

    def __init__(self, rules: SuperPan9Rules | None = None, source: RandomSource | None = None,
                 shoe: Shoe | None = None) -> None:
        self.rules = rules or SuperPan9Rules()
        self.source = source
        self.shoe = shoe
        self.events: list[Event] = []
        self.round_no = 1
        self.phase = Phase.BETTING
        self.seats: dict[int, SeatHand] = {}
        self.chips: dict[int, Cents] = {}
        """The chips of each seated player, wagers down included (`sit`); a seat nobody sat
        at (the simulations) wagers without a stack to cover."""
        self.dealer_cards: list[Card] = []
        self.dealer_revealed = False
        self.dealer_drew = False

    # ----- queries -------------------------------------------------------------------------

    @property
    def to_act(self) -> int | None:
        """Rule 6, in seat order: the lowest seat with a live hand that has not acted."""
        if self.phase is not Phase.PLAYERS:
            return None
        for seat in sorted(self.seats):
            hand = self.seats[seat]
            if not hand.voided and not hand.acted:
                return seat
        return None

    @property
    def dealer_total(self) -> int:
        return hand_total(self.dealer_cards)

    # ----- seats -------------------------------------------------------------------------

    def sit(self, seat: int, chips: Cents) -> None:
        """A player sits at `seat` with `chips` (the room's stack, a replay's starting chips)."""
        if not 1 <= seat <= MAX_SEATS:
            raise RuleError("rule 1", f"no seat {seat}: a table has seats 1 to {MAX_SEATS} "
                            "(rule 1)")
        self.chips[seat] = require_cents(chips, "chips")

    def in_hand(self, seat: int) -> bool:
        """Whether the seat has a wager in the round not yet settled."""
        return seat in self.seats and self.phase is not Phase.COMPLETE

    def leave(self, seat: int) -> None:
        """The player gets up: not with a wager in the round."""
        if self.in_hand(seat):
            raise RuleError(WAGERS, "you have chips in play: wait for the hand to settle")
        self.chips.pop(seat, None)

    # ----- wagers (rule 5) ---------------------------------------------------------------

    def verify_place_wager(self, seat: int, amount: Cents, tie_amount: Cents = 0) -> None:
        require_cents(amount, "wager")
        require_cents(tie_amount, "tie bet")
        r = self.rules
        if self.phase is not Phase.BETTING:
            raise RuleError(WAGERS, f"wagers are closed: the round is in its {self.phase} phase")
        if not 1 <= seat <= MAX_SEATS:
            raise WagerRefused("rule 1", f"no seat {seat}: a table has seats 1 to {MAX_SEATS} "
                               "(rule 1)")
        if seat in self.seats:
            raise WagerRefused(WAGERS, f"seat {seat} already has a wager this round")
        if not r.min_wager_cents <= amount <= r.max_wager_cents:
            raise WagerRefused(
                WAGERS, f"a wager of {format_money(amount)} is outside the table limits, "
                f"{format_money(r.min_wager_cents)} to {format_money(r.max_wager_cents)}"
            )
        if tie_amount:
            if not r.tie_bet_offered:
                raise WagerRefused("rule 9", "this table does not offer the Tie Bet (rule 9)")
            if not r.tie_min_cents <= tie_amount <= r.tie_max_cents:
                raise WagerRefused(
                    WAGERS, f"a tie bet of {format_money(tie_amount)} is outside the limits, "
                    f"{format_money(r.tie_min_cents)} to {format_money(r.tie_max_cents)}"
                )
        for stake, what in ((amount, "a wager"), (tie_amount, "a tie bet")):
            why = r.refuse_off_chip(stake, what)
            if why is not None:
                raise WagerRefused(WAGERS, why)
        if len(self.seats) + 1 > self.seat_capacity:
            raise WagerRefused(
                WAGERS,
                f"a {r.shoe_size}-card shoe cannot serve more than {self.seat_capacity} seats"
            )
        has = self.chips.get(seat)
        if has is not None and amount + tie_amount > has:
            raise WagerRefused(WAGERS, f"your stack has {format_money(has)}: it cannot cover "
                               f"{format_money(amount + tie_amount)}")

    @property
    def seat_capacity(self) -> int:
        """Seats a round can serve from a fresh shoe: nine, fewer for a very small shoe."""
        return min(MAX_SEATS, self.rules.shoe_size // 4 - 1)

    can_place_wager = able(verify_place_wager)

    @action
    def place_wager(self, seat: int, amount: Cents, tie_amount: Cents = 0) -> WagerPlaced:
        self.seats[seat] = SeatHand(amount, tie_amount)
        return self._log(WagerPlaced(self.round_no, seat, amount, tie_amount))

    def verify_withdraw_wagers(self, seat: int) -> None:
        if seat not in self.seats or self.phase is Phase.COMPLETE:
            raise RuleError(WAGERS, NO_WAGER)
        if self.phase is not Phase.BETTING:
            raise RuleError(WAGERS, "the cards are dealt: wagers can no longer change")

    can_withdraw_wagers = able(verify_withdraw_wagers)

    @action
    def withdraw_wagers(self, seat: int) -> WagersWithdrawn:
        """Until the deal a seat may take its wager and Tie Bet back (house procedure: a
        wager is not in action before the cards are dealt)."""
        hand = self.seats.pop(seat)
        return self._log(WagersWithdrawn(self.round_no, seat, hand.wager + hand.tie_wager))

    # ----- dealing (rules 3, 5) ----------------------------------------------------------

    def verify_deal(self) -> None:
        if self.phase is not Phase.BETTING:
            raise RuleError(DEAL, f"cannot deal: the round is in its {self.phase} phase")
        if not self.seats:
            raise RuleError(DEAL, "cannot deal: no seat has a wager")

    can_deal = able(verify_deal)

    def needs_shuffle(self) -> str | None:
        """Why the shoe must be (re)shuffled before this round, or None: dealt through to the
        cut card, or too few cards left to finish a round."""
        if self.shoe is None:
            return "new shoe"
        if self.shoe.cut_card_reached:
            return "cut card reached"
        if self.shoe.remaining < cards_for_round(len(self.seats)):
            return "too few cards left for a round"
        return None

    @action
    def deal(self) -> HandsDealt:
        reason = self.needs_shuffle()
        if reason is not None:
            r = self.rules
            self.shoe = Shoe.shuffled(r.shoe_spec, r.cut_from_end, self.source)
            self._log(ShoeShuffled(self.round_no, reason, self.shoe.commitment,
                                   len(self.shoe.order), self.shoe.cut_index))
        shoe = self.shoe
        assert shoe is not None
        order = sorted(self.seats)
        for _ in range(3):
            for seat in order:
                self.seats[seat].cards.append(shoe.draw())
            self.dealer_cards.append(shoe.draw())
        self.phase = Phase.PLAYERS
        self._advance()
        event = HandsDealt(self.round_no,
                           tuple((s, tuple(self.seats[s].cards)) for s in order),
                           tuple(self.dealer_cards))
        return self._log(event)

    def _advance(self) -> None:
        if self.phase is Phase.PLAYERS and self.to_act is None:
            self.phase = Phase.DEALER
        if all(h.voided for h in self.seats.values()) and self.phase is not Phase.BETTING:
            self.phase = Phase.COMPLETE

    # ----- player decisions (rule 6) -----------------------------------------------------

    def verify_act(self, seat: int) -> None:
        hand = self.seats.get(seat)
        if hand is None:
            raise RuleError(ONE_CARD, "you have no hand at this table")
        if self.phase in (Phase.REVEALED, Phase.COMPLETE) or self.dealer_revealed:
            raise RuleError("rule 7", "the dealer has revealed; players can no longer act "
                            "(rule 7)")
        if self.phase is Phase.BETTING:
            raise RuleError(ONE_CARD, "no cards have been dealt yet")
        if hand.voided:
            raise RuleError(ONE_CARD, f"seat {seat}'s hand was voided")
        if hand.acted:
            what = "drawn" if hand.drew else "stood"
            raise RuleError(
                "rule 6", f"seat {seat} has already {what}: one additional card at most (rule 6)"
            )
        if self.to_act != seat:
            raise RuleError(ONE_CARD, f"it is seat {self.to_act}'s turn, not seat {seat}'s")

    can_act = able(verify_act)

    verify_draw = verify_stand = verify_act
    can_draw = can_stand = can_act

    @action
    def draw(self, seat: int) -> PlayerDrew:
        """Rule 6: the player asks for one additional card."""
        assert self.shoe is not None
        hand = self.seats[seat]
        hand.cards.append(self.shoe.draw())
        hand.acted = hand.drew = True
        self._advance()
        return self._log(PlayerDrew(self.round_no, seat, hand.cards[-1], hand.total))

    @action
    def stand(self, seat: int) -> PlayerStood:
        hand = self.seats[seat]
        hand.acted = True
        self._advance()
        return self._log(PlayerStood(self.round_no, seat, hand.total))

    # ----- the dealer (rule 7) -----------------------------------------------------------

    def verify_reveal(self) -> None:
        if self.dealer_revealed:
            raise RuleError(DEALER, "the dealer has already revealed")
        if self.phase is not Phase.DEALER:
            raise RuleError(
                DEALER, f"the dealer reveals only after every player has acted (phase {self.phase})"
            )

    can_reveal = able(verify_reveal)

    @action
    def reveal(self) -> DealerRevealed:
        self.dealer_revealed = True
        self.phase = Phase.REVEALED
        total = self.dealer_total
        event = DealerRevealed(self.round_no, tuple(self.dealer_cards), total,
                               dealer_must_draw(total))
        return self._log(event)

    def verify_dealer_draw(self) -> None:
        if self.phase is not Phase.REVEALED:
            raise RuleError(DEALER, "the dealer draws only after revealing")
        if self.dealer_drew:
            raise RuleError(DEALER, "the dealer has already drawn")
        if not dealer_must_draw(self.dealer_total):
            raise RuleError(
                "rule 7 ii",
                f"the dealer stands on {self.dealer_total}: 6 through 9 always stand (rule 7 ii)"
            )

    can_dealer_draw = able(verify_dealer_draw)

    @action
    def dealer_draw(self) -> DealerDrew:
        """Rule 7 i: three-card totals 0 through 5 always draw."""
        assert self.shoe is not None
        self.dealer_cards.append(self.shoe.draw())
        self.dealer_drew = True
        return self._log(DealerDrew(self.round_no, self.dealer_cards[-1], self.dealer_total))

    # ----- settlement (rules 4, 8, 9) ----------------------------------------------------

    def verify_settle(self) -> None:
        if self.phase is not Phase.REVEALED:
            raise RuleError(SETTLEMENT, "settlement comes after the dealer has revealed")
        if self.can_dealer_draw():
            raise RuleError(
                "rule 7 i",
                f"the dealer must draw on {self.dealer_total} before settling (rule 7 i)"
            )

    can_settle = able(verify_settle)

    @action
    def settle(self) -> RoundSettled:
        dealer_total = self.dealer_total
        out = []
        for seat in sorted(self.seats):
            hand = self.seats[seat]
            if hand.voided:
                assert hand.settlement is not None
                out.append(SeatSettled(seat, None, None, hand.settlement))
                continue
            hand.settlement = settle(hand.total, dealer_total, hand.wager, hand.tie_wager,
                                     self.rules)
            if seat in self.chips:
                self.chips[seat] += hand.settlement.net
            out.append(SeatSettled(seat, hand.total, dealer_total, hand.settlement))
        self.phase = Phase.COMPLETE
        return self._log(RoundSettled(self.round_no, dealer_total, tuple(out)))

    def finish_dealer(self) -> RoundSettled:
        """Reveal, draw if rule 7 says so, and settle: the dealer's whole turn."""
        self.reveal()
        if self.can_dealer_draw():
            self.dealer_draw()
        return self.settle()

    # ----- irregularities ----------------------------------------------------------------

    def verify_irregularity(self, kind: IrregularityKind, seat: int | None) -> None:
        if self.phase in (Phase.BETTING, Phase.COMPLETE):
            raise RuleError(
                IRREGULARITIES, "an irregularity is recorded between the deal and settlement, "
                f"not in the {self.phase} phase"
            )
        if kind is IrregularityKind.MISDEAL and seat is not None:
            raise RuleError(IRREGULARITIES, "a misdeal affects the whole deal: give no seat")
        if seat is not None:
            hand = self.seats.get(seat)
            if hand is None:
                raise RuleError(IRREGULARITIES, f"seat {seat} has no hand this round")
            if hand.voided:
                raise RuleError(IRREGULARITIES, f"seat {seat}'s hand is already void")

    def verify_record_irregularity(self, kind: IrregularityKind, seat: int | None = None,
                                   detail: str = "") -> None:
        self.verify_irregularity(kind, seat)

    can_record_irregularity = able(verify_record_irregularity)

    @action
    def record_irregularity(self, kind: IrregularityKind, seat: int | None = None,
                            detail: str = "") -> IrregularityHandled:
        """Apply the house policy: void the affected hand (seat) or every hand (the dealer's
        hand, a misdeal, or the void-round policy), return their wagers, and log why."""
        policy = self.rules.irregularity_policy
        if seat is None or policy is IrregularityPolicy.VOID_ROUND:
            affected = [s for s in sorted(self.seats) if not self.seats[s].voided]
        else:
            affected = [seat]
        returned = 0
        for s in affected:
            hand = self.seats[s]
            hand.voided = True
            hand.settlement = void_settlement(hand.wager, hand.tie_wager)
            returned += hand.wager + hand.tie_wager
        event = IrregularityHandled(self.round_no, kind, seat, detail or kind.value,
                                    policy.value, tuple(affected), returned)
        self._log(event)
        if all(h.voided for h in self.seats.values()):
            self.phase = Phase.COMPLETE
        elif self.phase is Phase.PLAYERS and self.to_act is None:
            self.phase = Phase.DEALER
        return event

    # ----- rounds ------------------------------------------------------------------------

    def verify_new_round(self) -> None:
        if self.phase is not Phase.COMPLETE:
            raise RuleError("rule 5 (a new round)", f"the round is not over (phase {self.phase})")

    can_new_round = able(verify_new_round)

    @action
    def new_round(self) -> RoundStarted:
        self.round_no += 1
        self.phase = Phase.BETTING
        self.seats = {}
        self.dealer_cards = []
        self.dealer_revealed = self.dealer_drew = False
        return self._log(RoundStarted(self.round_no))

    def _void(self, reason: str) -> int:
        """Before the deal the wagers are simply taken back (no card is out); after it every
        hand still live is void as on a misdeal (`record_irregularity`, the detail `reason`),
        and a new round begins."""
        if self.phase is Phase.BETTING:
            back = sum(h.wager + h.tie_wager for h in self.seats.values())
            self.seats.clear()
            return back
        if self.phase is not Phase.COMPLETE:
            self.record_irregularity(IrregularityKind.MISDEAL, None, reason)
        self.new_round()
        return 0

    # ----- what a viewer may see ---------------------------------------------------------

    def snapshot(self, viewer: int | None = None) -> dict[str, Any]:
        """The table as seat `viewer` (None: a spectator) may see it. A player sees their own
        cards; other players' cards and the dealer's stay face down (only their count shows)
        until the dealer reveals and hands are turned up for settlement."""
        showdown = self.phase is Phase.COMPLETE and not all(
            h.voided for h in self.seats.values())
        seats = []
        for seat in sorted(self.seats):
            hand = self.seats[seat]
            visible = seat == viewer or (showdown and not hand.voided)
            seats.append({
                "seat": seat,
                "wager": hand.wager,
                "tie_wager": hand.tie_wager,
                "card_count": len(hand.cards),
                "cards": [str(c) for c in hand.cards] if visible else None,
                "total": hand.total if visible and hand.cards else None,
                "acted": hand.acted,
                "drew": hand.drew,
                "voided": hand.voided,
                "result": hand.settlement.outcome.value if hand.settlement else None,
                "net": hand.settlement.net if hand.settlement else None,
            })
        return {
            "game": "super-pan-9",
            "round": self.round_no,
            "phase": self.phase.value,
            "viewer": viewer,
            "to_act": self.to_act,
            "seats": seats,
            "dealer": {
                "card_count": len(self.dealer_cards),
                "cards": [str(c) for c in self.dealer_cards] if self.dealer_revealed else None,
                "total": self.dealer_total if self.dealer_revealed else None,
            },
            "shoe_remaining": self.shoe.remaining if self.shoe else None,
            "cut_card_reached": self.shoe.cut_card_reached if self.shoe else False,
        }

    # ----- the game's flow (the engine protocol) ------------------------------------------
    free = frozenset({"place_wager"})
    TABLE_STEPS = ("deal", "reveal", "dealer_draw", "settle", "new_round")

    def table_seats(self) -> list[protocol.Seat]:
        """Any seat may wager (the simulations' seats nobody sat at too)."""
        return [*range(1, MAX_SEATS + 1), protocol.TABLE]

    def _offers(self, seat: protocol.Seat) -> Iterator[protocol.Action]:
        """A seat's wager at `engine.amounts`, alone and with the least tie bet; its withdrawal;
        its turn (rule 6); the table's steps (`TABLE_STEPS`)."""
        if seat == protocol.TABLE:
            yield from (protocol.Action(name) for name in self.TABLE_STEPS)
            return
        assert isinstance(seat, int)
        r = self.rules
        if self.phase is Phase.BETTING:
            for a in protocol.amounts(r.min_wager_cents, r.max_wager_cents, self.chips.get(seat)):
                yield protocol.Action("place_wager", (seat, a, 0), seat)
            yield protocol.Action("place_wager", (seat, r.min_wager_cents, r.tie_min_cents), seat)
            yield protocol.Action("withdraw_wagers", (seat,), seat)
        elif seat == self.to_act:
            yield from (protocol.Action(name, (seat,), seat) for name in ("draw", "stand"))

    def is_over(self) -> bool:
        return self.phase is Phase.COMPLETE

    def _settlement(self) -> dict[int, int]:
        return {seat: h.settlement.net if h.settlement else 0 for seat, h in self.seats.items()}

    def _snapshot(self, seat: int | None) -> dict[str, Any]:
        return self.snapshot(seat)
