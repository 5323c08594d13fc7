"""Super Pan 9's messages (its wager and Tie Bet, draw, stand, the floor's irregularity) and its
snapshot models (limits, seats, the dealer, the round and its settlement): docs/protocol.md."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from cardroom.games.super_pan_9.events import IrregularityKind
from cardroom.room.play.protocol import (
    Amount,
    Bet,
    ChangeBets,
    Key,
    Message,
    NoWagers,
    Number,
    ShortReason,
)
from cardroom.room.play.protocol_state import (
    CardView,
    Cents,
    HandResult,
    HouseLimits,
    Part,
    SeatedYou,
    ShoeView,
    TablePlayer,
    TableState,
    VoidedHand,
)


class SuperPan9Stakes(Message):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    tie: Amount = Field(0, description="the Tie Bet, if any")
    wager: Amount


class SuperPan9Bet(Bet):
    """The main wager, with or without a Tie Bet."""

    type: Literal["bet"]
    key: Key
    bets: SuperPan9Stakes
    refusals: ClassVar[dict[str, str]] = {
        "bets": "the bets must be a wager, with or without a Tie Bet",
        "bets.tie": "the Tie Bet is not an amount of money",
        "bets.wager": "the wager is not an amount of money"}


class SuperPan9ChangeBets(SuperPan9Bet, ChangeBets):
    """Issue 13: until the deal, the seat's wager (and Tie Bet) replaced; `{}` withdraws."""

    type: Literal["change_bets"]  # type: ignore[assignment]
    bets: SuperPan9Stakes | NoWagers  # type: ignore[assignment]


class Draw(Message):
    """The seat in turn draws a third card (rule 6)."""

    type: Literal["draw"]


class Stand(Message):
    """The seat in turn stands (a dealer may stand a seat whose player does not act)."""

    type: Literal["stand"]


class SuperPan9Irregularity(Message):
    """A dealer or the floor records an irregularity; the house policy applies it."""

    type: Literal["irregularity"]
    kind: IrregularityKind = Field(strict=False)  # its value, as the wire carries it
    seat: Number | None = Field(None, description="the seat affected; none: the deal or the "
                                                  "dealer's hand")
    reason: ShortReason
    refusals: ClassVar[dict[str, str]] = {
        "kind": f"the irregularity must be one of: {', '.join(k.value for k in IrregularityKind)}",
        "seat": "choose a seat by its number"}


class SuperPan9You(SeatedYou):
    to_act: bool


class SuperPan9Limits(HouseLimits):
    min: Cents
    max: Cents
    tie_min: Cents | None
    tie_max: Cents | None
    tie_pays: int
    commission: str = Field(description="the commission on a winning wager, as a fraction")


class SuperPan9Seat(Part):
    """A seat's hand as the viewer may see it: its cards (and total) only when the rules
    show them (the viewer's own; everyone's at the showdown), else only their count."""

    seat: int
    wager: Cents
    tie_wager: Cents
    card_count: int
    cards: list[CardView] | None = Field(description="None while hidden from the viewer")
    total: int | None
    acted: bool
    drew: bool
    voided: bool
    result: str | None = Field(description="the outcome, once settled")
    net: Cents | None = Field(description="what the hand won or lost, once settled")
    name: str


class SuperPan9Dealer(Part):
    """The dealer's hand: its cards and total once the dealer reveals."""

    card_count: int
    cards: list[CardView] | None
    total: int | None


class SuperPan9Round(Part):
    phase: str
    to_act: int | None = Field(description="the seat to draw or stand")
    seats: list[SuperPan9Seat]
    dealer: SuperPan9Dealer
    shoe_remaining: int | None


class SuperPan9Settlement(Part):
    seat: int
    name: str
    account: int
    outcome: str
    total: int | None
    wager: Cents
    commission: Cents
    tie_wager: Cents
    tie_commission: Cents
    net: Cents
    returned: Cents


class SuperPan9VoidedSettlement(Part):
    """A hand an irregularity voided: its wagers went back when it was recorded."""

    seat: int
    name: str
    account: int
    outcome: str
    voided: Literal[True]
    wager: Cents
    tie_wager: Cents
    net: Cents
    returned: Cents


class SuperPan9Result(HandResult):
    settlements: list[SuperPan9Settlement | SuperPan9VoidedSettlement]
    dealer_total: int
    seats: list[SuperPan9Seat] = Field(description="every hand shown, as at the showdown")
    dealer: SuperPan9Dealer


class SuperPan9State(TableState):
    game: Literal["super-pan-9"]
    you: SuperPan9You
    limits: SuperPan9Limits
    round: SuperPan9Round | None = Field(description="the round as the viewer may see it")
    last: SuperPan9Result | VoidedHand | None
    players: list[TablePlayer]
    shoe: ShoeView
