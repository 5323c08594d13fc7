"""A Super-9 Mini-Baccarat table: seats, bets, coups dealt through a shoe, settlement, pool.

The table follows the engine protocol (`cardroom.engine`): verify_x / can_x / @action x,
refusals as `RuleError`s naming the clause. Every change is an immutable event in `events`: the
table's hand history and audit trail.
Chips in this module are integer cents; a seat's balance never goes negative. A seat is the
table's seat number, as at every game's table (issue 24); the players' names are the room's
and the hand history's (`cardroom.games.baccarat.history`).

A coup (a seeded shuffle, for the example only; live tables shuffle with the OS CSPRNG): ann
bets $5 on the Banker, whose 7 beats the Player's 6; she is paid even money less the 5%
commission.

>>> from cardroom.games.baccarat.rules import BaccaratRules
>>> from cardroom.games.baccarat.wagers import WagerKind
>>> from cardroom.shoe import SeededRandom
>>> table = BaccaratTable(BaccaratRules(), SeededRandom(7))
>>> _ = table.sit(1, 10_000)
>>> _ = table.place_bets(1, {WagerKind.BANKER: 500})
>>> coup = table.deal()
>>> " ".join(map(str, coup.player)), " ".join(map(str, coup.banker))
('Ts 6d', 'Kd 7h')
>>> [(seat, s.kind.value, s.net) for seat, s in coup.settlements], table.balances
([(1, 'banker', 475)], {1: 10475})

The coup through the engine protocol (`cardroom.engine`): it is over, settled, and the next
coup's first moves are the seats' bets.

>>> table.is_over(), table.settlement(), table.seats_to_act()
(True, {1: 475}, (1,))
>>> table.legal_actions(1)[0]
Action(name='place_bets', args=(1, {<WagerKind.PLAYER: 'player'>: 500}), seat=1)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from cardroom import engine as protocol
from cardroom.cards import Card
from cardroom.engine import NO_WAGER, Engine, Event, RuleError, WagerRefused, able, action
from cardroom.games.baccarat.coup import Coup, CoupResult
from cardroom.games.baccarat.limits import check_bets
from cardroom.games.baccarat.paytables import progressive_schedule
from cardroom.games.baccarat.rules import BaccaratRules
from cardroom.games.baccarat.wagers import (
    ProgressiveAward,
    Settlement,
    WagerKind,
    progressive_award,
    settle_wager,
)
from cardroom.money import Cents, format_money, require_cents
from cardroom.progressive_pool import JackpotPool
from cardroom.shoe import RandomSource, Shoe, SystemRandom

SEATS = "mini-baccarat/object (a seat at the table)"
WAGERS = "mini-baccarat/wagers"
DEAL = "mini-baccarat/two-hands"
PROGRESSIVE = "super-9-baccarat/jackpot-top"
PENDING = ("jackpot pending: the progressive takes no wager and pays no award until the top "
           "award is verified and paid (the floor may void a hand with a progressive wager)")


@dataclass(frozen=True)
class SeatTaken(Event):
    clause: ClassVar[str] = SEATS
    seat: int
    buy_in: Cents


@dataclass(frozen=True)
class BetsPlaced(Event):
    clause: ClassVar[str] = WAGERS
    seat: int
    bets: tuple[tuple[WagerKind, Cents], ...]


@dataclass(frozen=True)
class BetsWithdrawn(Event):
    """A seat's bets taken back before the coup is dealt (back to its balance)."""

    clause: ClassVar[str] = WAGERS
    seat: int
    returned: Cents


@dataclass(frozen=True)
class ShoeShuffled(Event):
    clause: ClassVar[str] = "super-9-baccarat/eight-decks"
    commitment: str
    cut_index: int


@dataclass(frozen=True)
class CardsBurned(Event):
    clause: ClassVar[str] = "super-9-baccarat/eight-decks (the burn)"
    exposed: Card
    count: int


@dataclass(frozen=True)
class CoupSettled(Event):
    clause: ClassVar[str] = "mini-baccarat/player-pays, banker-pays, tie-pays"
    coup_number: int
    player: tuple[Card, ...]
    banker: tuple[Card, ...]
    settlements: tuple[tuple[int, Settlement], ...]
    jackpot_award: ProgressiveAward




def _check_seat(seat: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise RuleError(SEATS, "a seat is the table's seat number")


@dataclass
class BaccaratTable(Engine):
    rules: BaccaratRules
    source: RandomSource = field(default_factory=SystemRandom)
    pool: JackpotPool | None = None
    balances: dict[int, Cents] = field(default_factory=dict)
    """Each seat's chips not on the layout, by seat number."""
    bets: dict[int, dict[WagerKind, Cents]] = field(default_factory=dict)
    events: list[Event] = field(default_factory=list)
    shoe: Shoe | None = None
    coups_after_cut: int = 0
    coup_number: int = 0

    def __post_init__(self) -> None:
        if self.pool is None and self.rules.jackpot:
            self.pool = JackpotPool(self.rules.jackpot_seed_cents,
                                    self.rules.contribution_cents_per_dollar)

    # seats ---------------------------------------------------------------------------------
    def verify_sit(self, seat: int, buy_in: Cents) -> None:
        require_cents(buy_in, "buy-in")
        _check_seat(seat)
        if seat in self.balances:
            raise RuleError(SEATS, f"seat {seat} is already taken")
        if buy_in <= 0:
            raise RuleError(SEATS, "a buy-in must be a positive amount")

    can_sit = able(verify_sit)

    @action
    def sit(self, seat: int, buy_in: Cents) -> SeatTaken:
        self.balances[seat] = buy_in
        return self._log(SeatTaken(seat, buy_in))

    def restore_seat(self, seat: int, chips: Cents) -> None:
        """A seat whose chips someone else keeps the books of (the card room's cashier, which
        took the buy-in): the seat with those chips, none at all included (a player who has
        lost every chip stays seated), and no buy-in of the table's own."""
        _check_seat(seat)
        self.balances[seat] = require_cents(chips, "chips")

    def leave(self, seat: int) -> None:
        """The player gets up with the balance: not with bets on the layout."""
        if seat in self.bets:
            raise RuleError(WAGERS, "you have chips in play: wait for the hand to settle")
        self.balances.pop(seat, None)

    # bets ----------------------------------------------------------------------------------
    def verify_place_bets(self, seat: int, bets: Mapping[WagerKind, Cents]) -> None:
        if seat not in self.balances:
            raise RuleError(WAGERS, f"no seat {seat} at this table")
        if seat in self.bets:
            raise RuleError(WAGERS, f"seat {seat} has already bet on this coup")
        check_bets(bets, self.rules)
        if WagerKind.PROGRESSIVE in bets and self.pool is not None and self.pool.locked:
            raise RuleError(PROGRESSIVE, PENDING)
        total = sum(bets.values())
        if total > self.balances[seat]:
            raise WagerRefused(WAGERS, f"refused: bets of {format_money(total)} exceed the "
                               f"balance of {format_money(self.balances[seat])}")

    can_place_bets = able(verify_place_bets)

    @action
    def place_bets(self, seat: int, bets: Mapping[WagerKind, Cents]) -> BetsPlaced:
        self.bets[seat] = dict(bets)
        self.balances[seat] -= sum(bets.values())
        return self._log(BetsPlaced(seat, tuple(bets.items())))

    def verify_withdraw_bets(self, seat: int) -> None:
        if seat not in self.bets:
            raise RuleError(WAGERS, NO_WAGER)

    can_withdraw_bets = able(verify_withdraw_bets)

    @action
    def withdraw_bets(self, seat: int) -> BetsWithdrawn:
        """Until the coup is dealt a seat may take its bets back (`deal` settles every bet
        in one step, so a bet on the layout is always one not yet dealt)."""
        returned = sum(self.bets.pop(seat).values())
        self.balances[seat] += returned
        return self._log(BetsWithdrawn(seat, returned))

    # the coup ------------------------------------------------------------------------------
    def _ensure_shoe(self) -> Shoe:
        done = self.shoe is not None and self.shoe.cut_card_reached and \
            self.coups_after_cut >= self.rules.coups_after_cut_card
        if self.shoe is None or done:
            self.shoe = Shoe.shuffled(self.rules.shoe_spec, self.rules.cut_card_from_end,
                                      self.source)
            self.coups_after_cut = 0
            self._log(ShoeShuffled(self.shoe.commitment, self.shoe.cut_index))
            burned = self.shoe.burn(self.rules.burn_rule)
            if burned:
                self._log(CardsBurned(burned[0], len(burned)))
        return self.shoe

    def verify_deal(self) -> None:
        if not self.bets:
            raise RuleError(DEAL, "no bets are down: nothing to deal")
        if self.pool is not None and self.pool.locked and any(
                WagerKind.PROGRESSIVE in b for b in self.bets.values()):
            raise RuleError(PROGRESSIVE, PENDING)

    can_deal = able(verify_deal)

    @action
    def deal(self) -> CoupSettled:
        """Deal one coup card by card (each an event), then settle every bet at once."""
        shoe = self._ensure_shoe()
        cut_before = shoe.cut_card_reached
        coup = Coup()
        while coup.can_deal():
            self._log(coup.deal(shoe.draw()))
        if cut_before:
            self.coups_after_cut += 1
        self.coup_number += 1
        return self._settle(coup.result())

    def _settle(self, result: CoupResult) -> CoupSettled:
        award = progressive_award(result)
        jackpot_hands = [s for s, b in self.bets.items() if WagerKind.PROGRESSIVE in b]
        shares: dict[int, Cents] = {}
        if self.pool is not None and jackpot_hands:
            self.pool.contribute(len(jackpot_hands))
            if award is ProgressiveAward.JACKPOT:
                shares = dict(zip(jackpot_hands, self.pool.award(len(jackpot_hands)),
                                  strict=True))
        held = self.pool is not None and self.pool.hold_top_award
        settled: list[tuple[int, Settlement]] = []
        for seat, bets in self.bets.items():
            for kind, stake in bets.items():
                s = settle_wager(kind, stake, result, self.rules, shares.get(seat, 0))
                if not (held and s.outcome == "jackpot"):  # paid once verified: not yet
                    self.balances[seat] += s.returned
                settled.append((seat, s))
        self.bets = {}
        return self._log(CoupSettled(self.coup_number, result.player, result.banker,
                                     tuple(settled), award))

    def _void(self, reason: str) -> int:
        """No card of a coup is dealt before its bets settle, so a void comes before the deal:
        every bet goes back to its seat's balance."""
        back = 0
        for seat, bets in self.bets.items():
            self.balances[seat] += sum(bets.values())
            back += sum(bets.values())
        self.bets = {}
        return back

    # ----- the game's flow (the engine protocol) ------------------------------------------
    free = frozenset({"place_bets"})

    def table_seats(self) -> list[protocol.Seat]:
        return [*sorted(self.balances), protocol.TABLE]

    def _offers(self, seat: protocol.Seat) -> Iterator[protocol.Action]:
        """A seat's bets: each main wager (and the tie) alone at `engine.amounts`, and the least
        Banker or Player wager with each side bet (the progressive, the nines)."""
        if seat == protocol.TABLE:
            yield protocol.Action("deal")
            return
        assert isinstance(seat, int)
        r, chips, K = self.rules, self.balances.get(seat), WagerKind
        least = r.table_min_cents
        options: list[dict[WagerKind, Cents]] = [
            *({main: a} for main in (K.PLAYER, K.BANKER)
              for a in protocol.amounts(least, r.table_max_cents, chips)),
            *({K.TIE: a} for a in protocol.amounts(r.tie_min_cents, r.tie_max_cents, chips)),
            {K.BANKER: least, K.PROGRESSIVE: progressive_schedule().wager_cents},
            {K.PLAYER: least, K.PLAYER_9: r.bonus_min_cents},
            {K.BANKER: least, K.BANKER_9: r.bonus_min_cents}]
        for bets in options:
            yield protocol.Action("place_bets", (seat, bets), seat)
        yield protocol.Action("withdraw_bets", (seat,), seat)

    def is_over(self) -> bool:
        """Over once the coup settles (or a void), until the next coup's first bet."""
        last = next((e for e in reversed(self.events) if isinstance(
            e, BetsPlaced | BetsWithdrawn | CoupSettled | protocol.Voided)), None)
        return isinstance(last, CoupSettled | protocol.Voided)

    def _settlement(self) -> dict[int, int]:
        last = next(e for e in reversed(self.events)
                    if isinstance(e, CoupSettled | protocol.Voided))
        net: dict[int, int] = {}
        for seat, s in last.settlements if isinstance(last, CoupSettled) else ():
            net[seat] = net.get(seat, 0) + s.net
        return net

    def _snapshot(self, seat: int | None) -> dict[str, Any]:
        """Every card of a coup is dealt face up: everyone sees the same table."""
        last = next((e for e in reversed(self.events) if isinstance(e, CoupSettled)), None)
        return {"balances": dict(self.balances),
                "bets": {s: {k.value: a for k, a in b.items()} for s, b in self.bets.items()},
                "player": [str(c) for c in last.player] if last else [],
                "banker": [str(c) for c in last.banker] if last else []}
