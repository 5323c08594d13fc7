"""Mini-Baccarat on the wire (docs/protocol.md): a `bet` and a `change_bets` naming each wager,
and the snapshot: limits, seats, the progressive's view, the road and the coup's result."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field

from cardroom.games.baccarat.wagers import WagerKind
from cardroom.room.play.protocol import (
    Amount,
    Bet,
    ChangeBets,
    Key,
)
from cardroom.room.play.protocol_state import (
    CardView,
    Cents,
    HandResult,
    HouseLimits,
    Part,
    ShoeView,
    TableState,
    VoidedHand,
)


class BaccaratBet(Bet):
    """Wagers for the next coup by name (banker, player, tie, the Super-9 wagers, progressive;
    the table reads the names and their aliases) with their amounts."""

    type: Literal["bet"]
    key: Key
    bets: Annotated[dict[str, Amount], Field(min_length=1, max_length=len(WagerKind))]
    refusals: ClassVar[dict[str, str]] = {
        "bets": "the bets must name each wager with its amount",
        "bets.*": "a bet is not an amount of money"}


class BaccaratChangeBets(BaccaratBet, ChangeBets):
    """Issue 13: until the deal, the seat's wagers replaced by these (the names of `bet`);
    no wagers withdraws them."""

    type: Literal["change_bets"]  # type: ignore[assignment]
    bets: Annotated[dict[str, Amount], Field(max_length=len(WagerKind))]


class BaccaratLimits(HouseLimits):
    table_min: Cents
    table_max: Cents
    tie_min: Cents
    tie_max: Cents
    bonus_min: Cents
    bonus_max: Cents
    jackpot_wager: Cents | None
    tie_pays: int = Field(description="the Tie pays this many to 1")
    commission: str = Field(description="the Banker commission as a fraction, e.g. 1/20")


class JackpotView(Part):
    posted: Cents
    meter: Cents
    pending: bool
    """A top award waits for its verification: the pool takes no progressive wager."""
    maximum: Cents | None = None
    """The posted maximum prize (WAC 230-15-685(4)); None when the pool has none."""


class BaccaratSeat(Part):
    name: str
    stack: Cents
    bets: dict[str, Cents]
    you: bool


class BaccaratSettlement(Part):
    seat: str
    kind: str
    stake: Cents
    outcome: str
    won: Cents
    commission: Cents
    returned: Cents
    pending: bool
    """A top award's share held until the hand is verified (not yet in the stack)."""


class BaccaratResult(HandResult):
    player: list[CardView]
    banker: list[CardView]
    player_total: int
    banker_total: int
    winner: Literal["player", "banker", "tie"]
    jackpot_award: str
    settlements: list[BaccaratSettlement]

    def outcome_words(self) -> str:
        return "a tie" if self.winner == "tie" else f"{self.winner} wins"


class RoadMark(Part):
    """One coup of the shoe on the scoreboard (bead plate and big road)."""

    winner: Literal["player", "banker", "tie"]
    player: int
    banker: int


class BaccaratState(TableState):
    game: Literal["baccarat"]
    limits: BaccaratLimits
    jackpot: JackpotView | None
    seats: list[BaccaratSeat]
    shoe: ShoeView
    last: BaccaratResult | VoidedHand | None
    road: list[RoadMark] = Field(description="this shoe's coups in order (empty after a new "
                                             "shoe or a restart)")
