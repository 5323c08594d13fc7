"""What a table sends its viewers, as types (docs/protocol.md): `{"type": "state", ...}`, the
viewer's snapshot after every change at the table, and `{"type": "error", ...}`, a refusal to
the sender only.

A snapshot is `TableState` (the envelope and the parts every game shares: the table, the hand,
what the viewer may do, the last result) with one model per game for the rest. Each live table
builds its snapshot as its game's model (`room/*_live.py`: `state`, the shared parts built once
in `LiveTable`), so every key and type of the documented protocol is what the tables send; the
page receives the model's JSON (`LiveTable.snapshot`: `model_dump(mode="json",
exclude_unset=True)`, so a field with a default the game does not give, `HandRef.number` and
`phase` in baccarat, is not sent). `check_state` reads a snapshot's JSON back as its game's
model (`extra="forbid"`: a key the model does not name fails).
The parts the game engine shapes (the last result, a Super Pan 9 round, a Pan hand's `play`)
are models too, built where the room turns the engine's snapshot into what the page draws.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from cardroom import registry
from cardroom.room.protocol import tuple_union


class Part(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


Cents = Annotated[int, Field(description="an amount of money in integer cents")]


class CardView(Part):
    """A card as the page draws it: its image code (`/cards/<code>.svg`) and its text."""

    code: int
    text: str


class TableRef(Part):
    id: int
    name: str


class TurnView(Part):
    """The decision the hand waits for (issue 23, action timers): whose, and the time left
    before the house rules' default action is taken for them."""

    name: str
    seat: int | None = Field(description="the player's table seat")
    seconds_left: int = Field(description="whole seconds until the turn runs out")
    deadline: str = Field(description="when it runs out (ISO 8601, UTC)")


class HandRef(Part):
    """The hand in progress (`id` None between hands)."""

    id: int | None
    open: bool
    number: int | None = Field(default=None,
                               description="the hand's number at the table (not in baccarat)")
    phase: str | None = Field(default=None, description="the game's phase, `idle` between hands "
                                                        "(not in baccarat)")
    turn: TurnView | None = Field(default=None, description="the timed decision the hand "
                                  "waits for (Super Pan 9 and Pan only)")


class You(Part):
    """What the viewer may do now (the page shows the buttons)."""

    seated: bool
    may_deal: bool
    may_void: bool
    see_the_cage: bool = False
    """A jackpot share of the viewer's waits until the cage records their identity (Form
    W-2G); the page says so plainly, with no figure."""


class SeatedYou(You):
    seat: int | None = Field(description="the viewer's seat number, if seated")
    sitting_out: bool | None = Field(default=None, description="the viewer sits out after "
                                     "missed turns (Super Pan 9 and Pan only)")


class ShoeView(Part):
    """The shoe's SHA-256 commitment (published before the first card) and cards left; never
    its order."""

    remaining: int | None
    commitment: str | None


class VoidedHand(Part):
    """The last hand, voided by the floor: every wager went back to its stack."""

    hand: int
    number: int | None = Field(default=None, description="the hand's number at the table")
    voided: Literal[True]
    reason: str
    by: str = Field(description="who voided it")
    irregularity: str | None = Field(
        default=None, description="Super Pan 9: the irregularity that voided every hand "
                                  "(absent otherwise)")


class AwaitingVerification(Part):
    """A wager's payout held for surveillance (WAC 230-15-320(4)): the fact only, never the
    figure that made it wait."""

    name: str = Field(description="the winner's name")
    wager: str = Field(description="the wager's name at the table")


class HandResult(Part):
    """The last hand's public result, settled: each game adds its own fields."""

    hand: int
    number: int = Field(description="the hand's number at the table")
    awaiting_verification: list[AwaitingVerification] = Field(
        default_factory=list, description="payouts of the hand held until surveillance "
        "verifies them (sent only when there are some)")

    def outcome_words(self) -> str:
        """Who won, in a few plain words for the floor page ("" where the game names no
        winner of the hand)."""
        return ""


class TableState(Part):
    """The envelope every snapshot shares."""

    type: Literal["state"]
    game: str
    table: TableRef
    hand: HandRef
    you: You
    last: HandResult | VoidedHand | None = Field(description="the last hand's public result "
                                                             "(each game narrows it to its "
                                                             "own), or its void")


# Mini-Baccarat -------------------------------------------------------------------------------
class BaccaratLimits(Part):
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


# Super Pan 9 -------------------------------------------------------------------------------
class SuperPan9You(SeatedYou):
    to_act: bool


class TablePlayer(Part):
    seat: int
    name: str
    stack: Cents
    you: bool


class SuperPan9Limits(Part):
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


# Pai Gow Poker -------------------------------------------------------------------------------
class PaiGowYou(SeatedYou):
    may_bank: bool
    bank_refusal: str | None
    may_dragon: bool
    to_set: list[int] = Field(description="the spots the viewer has yet to set")


class PaiGowLimits(Part):
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


# Panguingue ----------------------------------------------------------------------------------
class PanYou(SeatedYou):
    hand_seat: int | None = Field(description="the viewer's seat in the hand's order")


class PanRules(Part):
    chip_cents: Cents
    buy_in_chips: int
    outs_chips: int
    double_condition: bool


class PanPlayer(TablePlayer):
    bot: bool
    doubles: bool


class PanSeat(Part):
    """A seat of the hand (`seat`: its index in the hand's order, from 0)."""

    seat: int
    name: str
    chips: int
    doubles: bool
    status: str = Field(description="in, passed, dead, fouled, self-fouled, busted or out")
    declared: bool | None = Field(description="whether the seat plays (None: not yet "
                                              "declared)")
    hand: list[CardView] | None = Field(description="the viewer's own hand, or one played "
                                                    "face up; None while hidden")
    hand_count: int
    melds: list[list[CardView]] = Field(description="the seat's spreads as they lie")
    spread_value: int
    table_seat: int = Field(description="the seat's number at the table")
    bot: bool


class PanActionView(Part):
    """A legal action of the viewer, as the page sends it back (`{"type": "pan", "action":
    ...}`); which fields matter depends on `kind` (the Pan document describes each)."""

    kind: str
    cards: list[str]
    meld: int | None
    borrowed: list[str]
    seat: int | None = Field(description="the hand seat the action is aimed at")
    use: bool | None
    drawn: bool
    choose: bool = Field(description="the player picks the cards (or chips) before sending")
    label: str = Field(description="the button's label, in plain words")


class PanOffer(Part):
    """A foul hand asked to pay under a settlement on offer (foul rule 5A)."""

    seat: int
    name: str
    chips: int
    agreed: bool


class PanPlay(Part):
    """The hand as the viewer may see it."""

    phase: str
    current: int | None = Field(description="the hand seat whose turn it is")
    dealer: int
    first_hand: int
    drawn: CardView | None = Field(description="the card drawn from the stock, face up")
    top_discard: CardView | None
    stock: int = Field(description="cards left in the stock")
    tops: int
    double_tops: int
    seats: list[PanSeat]
    to_act: int | None = Field(description="the hand seat to decide now")
    actions: list[PanActionView] = Field(description="the viewer's legal actions, typed, "
                                                     "with button labels")
    legal: list[str] = Field(description="the same actions as commands of the terminal's "
                                         "grammar (the actions that need a choice have none)")
    settlement: list[PanOffer] | None = Field(description="a settlement on offer (foul rule "
                                                          "5A): who is asked to pay what, "
                                                          "who agreed")


class PanNet(Part):
    name: str
    chips: int
    cents: Cents


class PanResult(HandResult):
    reason: str | None = Field(description="why the hand ended, in words")
    winner: str | None
    winner_spreads: list[list[CardView]] = Field(description="the winner's spreads, face up")
    payments: list[str] = Field(description="every payment of the hand, in words")
    net: list[PanNet] = Field(description="each seat's chips won or lost")

    def outcome_words(self) -> str:
        if not self.winner:
            return ""
        return f"{self.winner} wins" + (f" ({self.reason})" if self.reason is not None else "")


class PanState(TableState):
    game: Literal["pan"]
    you: PanYou
    seq: int = Field(description="the moment of the game: a decision (`pan`) names it")
    rules: PanRules
    players: list[PanPlayer]
    play: PanPlay | None = Field(description="the hand as the viewer may see it")
    last: PanResult | VoidedHand | None
    carried_tops: int | None
    log: list[str]


class Refusal(Part):
    """A refusal, to the sender only; nothing changed. `message` is one plain sentence."""

    type: Literal["error"]
    message: str
    key: str | None = Field(None, description="the refused request's key, when it had one")


def state_model(game: str) -> type[TableState]:
    """The game's snapshot model: its live table's `state_model` (`cardroom.registry`)."""
    live: Any = registry.load(registry.game(game).live)
    model: type[TableState] = live.state_model
    return model


def check_state(snapshot: dict[str, Any]) -> TableState:
    """The snapshot as its game's model (pydantic's `ValidationError` when it is not)."""
    return state_model(snapshot["game"]).model_validate(snapshot)


def outbound_schema() -> dict[str, Any]:
    """The JSON Schema of what a table sends: a snapshot of one of the games, or a refusal."""
    union: Any = Annotated[tuple_union(tuple(state_model(g) for g in registry.names())),
                           Field(discriminator="game")] | Refusal
    schema: dict[str, Any] = TypeAdapter(union).json_schema()
    schema["title"] = "Messages from a table"
    return schema
