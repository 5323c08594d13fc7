"""What a table sends its viewers, as types (docs/protocol.md): `{"type": "state", ...}`, the
viewer's snapshot after every change at the table, and `{"type": "error", ...}`, a refusal to
the sender only.

A snapshot is `TableState` (the envelope and the parts every game shares: the table, the hand,
what the viewer may do, the last result) with one model per game for the rest (in
`room/play/<game>_protocol.py`, named by its live table's `state_model`). Each live table
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
from cardroom.room.play.protocol import tuple_union


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
                               description="the hand's number at the table (absent in a "
                                           "game that numbers no hands)")
    phase: str | None = Field(default=None, description="the game's phase, `idle` between hands "
                                                        "(absent in a game without phases)")
    turn: TurnView | None = Field(default=None, description="the timed decision the hand "
                                  "waits for (the games with turn timers only)")


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
                                     "missed turns (the games with turn timers only)")


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
        default=None, description="the irregularity that voided every hand "
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


class HouseLimits(Part):
    """What every house-banked table's limits carry: the table's smallest chip (house rules
    `smallest_chip_cents`), of which every wager is a whole number: the page's chip rack is
    built from it."""

    smallest_chip: Cents = Field(description="the table's smallest chip: every wager is a "
                                 "whole number of them")


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


class TablePlayer(Part):
    seat: int
    name: str
    stack: Cents
    you: bool


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
