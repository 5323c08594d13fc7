"""What a Pai Gow table reads (a wager, the dragon hand, banking, a setting, the house way, an
irregularity) and shows (banker, spots, settings, results), as the protocol's types."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import ConfigDict, Field

from cardroom.room.play.protocol import (
    Amount,
    Bet,
    ChangeBets,
    Key,
    Keyed,
    Message,
    NoWagers,
    ShortReason,
    Spot,
)
from cardroom.room.play.protocol_state import (
    CardView,
    Cents,
    HandResult,
    HouseLimits,
    Part,
    SeatedYou,
    TablePlayer,
    TableState,
    VoidedHand,
)


class PaiGowStakes(Message):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)
    wager: Amount


class PaiGowBet(Bet):
    """One wager on the seat's own hand."""

    type: Literal["bet"]
    bets: PaiGowStakes
    key: Key
    refusals: ClassVar[dict[str, str]] = {
        "bets": "the bet must be one amount, on the wager",
        "bets.wager": "the wager is not an amount of money"}


class PaiGowChangeBets(PaiGowBet, ChangeBets):
    """Issue 13: until the deal, the seat's wager replaced (its dragon hand goes back with
    it); `{}` withdraws it."""

    type: Literal["change_bets"]  # type: ignore[assignment]
    bets: PaiGowStakes | NoWagers  # type: ignore[assignment]


class Dragon(Message):
    """Play the dragon hand (an open spot) for a second wager (house rule `dragon_hand`)."""

    type: Literal["dragon"]
    amount: Amount
    spot: Spot = Field(None, description="the open spot; none: the first one")
    key: Key
    refusals: ClassVar[dict[str, str]] = {
        "amount": "the dragon hand's wager is not an amount of money"}


class Bank(Keyed):
    """Bank the next hand (player banking)."""

    type: Literal["bank"]


class SetHand(Message):
    """Set a hand: the two cards of the front hand (the other five are the back)."""

    type: Literal["set"]
    spot: Spot = Field(None, description="the spot set: the seat's own (none), or the dragon "
                                         "spot it plays")
    front: list[str] = Field(description="the front hand's two cards, e.g. [\"As\", \"Kd\"]")
    refusals: ClassVar[dict[str, str]] = {"front": "the front hand must be two cards"}


class HouseWay(Message):
    """Ask for the house way to set the hand."""

    type: Literal["house_way"]
    spot: Spot = None


class PaiGowIrregularity(Message):
    """A dealer or the floor records a misdeal, an exposed card or a wrong card count."""

    type: Literal["irregularity"]
    kind: Literal["misdeal", "exposed-card", "wrong-card-count"]
    reason: ShortReason
    spot: Spot = Field(None, description="the spot affected (not for a misdeal)")
    card: str | None = Field(None, description="the card exposed (exposed-card)")
    count: int | None = Field(None, description="the cards the spot holds (wrong-card-count)")
    refusals: ClassVar[dict[str, str]] = {
        "kind": "the irregularity must be a misdeal, an exposed card or a wrong card count",
        "card": "that is not a card", "count": "the count of cards must be a number"}


class PaiGowYou(SeatedYou):
    may_bank: bool
    bank_refusal: str | None
    may_dragon: bool
    to_set: list[int] = Field(description="the spots the viewer has yet to set")


class PaiGowLimits(HouseLimits):
    min: Cents
    max: Cents
    commission: str
    dragon: str
    foul_policy: str = Field(description="what a foul setting does: hand-loses, "
                                         "reset-house-way or refuse")


class PaiGowBanker(Part):
    spot: int
    name: str


class PaiGowPlayer(TablePlayer):
    wager: Cents | None
    dragon: Cents | None
    banker: bool


class PaiGowChoice(Part):
    """One way to set a seven-card hand: the two front (low) cards, both hands named."""

    front: list[str]
    high: str
    low: str
    foul: bool


class PaiGowSetting(Part):
    """A hand as set: the two-card front (low) hand and the five-card back (high) hand."""

    front: list[CardView]
    back: list[CardView]
    foul: bool


class PaiGowSpot(Part):
    spot: int
    name: str
    cards: list[CardView] | None = Field(description="None while hidden from the viewer")
    card_count: int
    set: bool
    setting: PaiGowSetting | None = Field(description="the hand as set, when the viewer may "
                                                      "see it")
    mine: bool
    choices: list[PaiGowChoice] | None = Field(description="the viewer's own unset hand: every "
                                                           "way to set it, named")


class PaiGowDeal(Part):
    dice: list[int] = Field(description="the three dice (none when the table uses no dice)")
    first_spot: int = Field(description="the spot dealt the first hand (0: the dealer)")


class PaiGowNames(Part):
    high: str
    low: str


class PaiGowResultSpot(Part):
    """A hand at the settlement, shown: as set, its outcome and net (None for a hand that
    was not set or not in play)."""

    spot: int
    name: str
    cards: list[CardView]
    setting: PaiGowSetting | None
    names: PaiGowNames | None
    house_way: bool | None
    banker: bool
    outcome: str | None
    wager: Cents | None
    commission: Cents | None
    net: Cents | None


class PaiGowResult(HandResult):
    banker_spot: int = Field(description="the banker's spot (0: the dealer)")
    banker_net: Cents
    banker_commission: Cents
    spots: list[PaiGowResultSpot]


class PaiGowState(TableState):
    game: Literal["pai-gow"]
    last: PaiGowResult | VoidedHand | None
    you: PaiGowYou
    limits: PaiGowLimits
    phase: str
    banker: PaiGowBanker
    players: list[PaiGowPlayer]
    spots: list[PaiGowSpot]
    deal: PaiGowDeal | None = Field(description="the dice of this or the last hand and the "
                                                "first hand dealt")
