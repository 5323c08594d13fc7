"""The Pan table's own protocol types: taking a seat for chips, a bot, raising the condition
and a decision of the hand (`pan`); the rules, players, seats, play and result it shows."""

from __future__ import annotations

from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator, Field, StringConstraints, model_validator

from cardroom.room.play import protocol_state
from cardroom.room.play.protocol import (
    BuyIn,
    Key,
    Keyed,
    Message,
    Sit,
    trimmed,
)
from cardroom.room.play.protocol_state import (
    CardView,
    Cents,
    HandResult,
    Part,
    TablePlayer,
    TableState,
    VoidedHand,
)


class PanSit(Sit):
    """Take a seat for whole chips, single or double condition."""

    type: Literal["sit"]
    doubles: bool = Field(False, description="play double condition")
    buy_in: BuyIn
    key: Key
    refusals: ClassVar[dict[str, str]] = {
        "doubles": "the choice of double condition must be yes or no"}


class Bot(Keyed):
    """Seat a bot between hands, funded by the house."""

    type: Literal["bot"]


class RaiseCondition(Message):
    """The floor moves a game where every player plays doubles to the next condition."""

    type: Literal["raise_condition"]


class PanCommand(Message):
    """A decision of the hand (play, pass, draw, take, meld, discard, knock, go out...),
    answering the table at the moment `seq` (a stale one is refused): a typed `action` as the
    snapshot's `play.actions` offers it (the page's buttons; `games.pan.commands.PanAction`,
    its fields checked by `action_from_json`), or a `command` in the terminal's grammar."""

    type: Literal["pan"]
    action: dict[str, Any] | None = Field(None, description="a typed action, as `play.actions` "
                                          "lists them (less `label` and `choose`)")
    command: Annotated[str, StringConstraints(min_length=1, max_length=200),
                       AfterValidator(trimmed)] | None = None
    seq: int = Field(description="the table's `seq` the decision answers")
    refusals: ClassVar[dict[str, str]] = {
        "action": "the action could not be read: choose it again",
        "command": "the Pan command must be a text of 1 to 200 characters",
        "seq": "it does not say which moment of the game it answers",
        "": "it does not say which action to take"}

    @model_validator(mode="after")
    def _one_decision(self) -> PanCommand:
        if (self.action is None) == (self.command is None):
            raise ValueError("an action or a command")
        return self


class PanYou(protocol_state.SeatedYou):
    hand_seat: int | None = Field(description="the viewer's seat (its number) in the hand")


class PanRules(Part):
    chip_cents: Cents
    buy_in_chips: int
    outs_chips: int
    double_condition: bool


class PanPlayer(TablePlayer):
    bot: bool
    doubles: bool


class PanSeat(Part):
    """A seat of the hand (`seat`: its table seat number, as the engine knows it; `table_seat`
    the same number)."""

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
    seat: int | None = Field(description="the seat (its number) the action is aimed at")
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
    current: int | None = Field(description="the seat (its number) whose turn it is")
    dealer: int
    first_hand: int
    drawn: CardView | None = Field(description="the card drawn from the stock, face up")
    top_discard: CardView | None
    stock: int = Field(description="cards left in the stock")
    tops: int
    double_tops: int
    seats: list[PanSeat]
    to_act: int | None = Field(description="the seat (its number) to decide now")
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
