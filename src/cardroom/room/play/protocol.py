"""The table protocol as types: the messages a client sends to a table that every game shares
(each game's own are in `room/play/<game>_protocol.py`, and its live table lists the ones it reads:
`messages`), and what a table sends back (docs/protocol.md; the JSON Schema in docs/protocol/
is generated from these models by `scripts/protocol_schema.py`).

Inbound: `read(game, msg)` checks a message against the model of its `type` for the table's
game before the table sees it, and refuses a malformed one with one plain sentence for the
person (`MalformedMessage`: "the table could not read that request: the buy-in is not an
amount of money"), never a field name. A field's type carries the sentence its refusal gives
(`Refuses`), or its model names it (`refusals`). Types are strict (an amount is a JSON integer
of cents: not `true`, not `1.5`, not `"100"`); fields a model does not name are ignored, as they
always were. A type the game does not know goes on to the table, which answers "unknown
action ..." (Pan answers a `bet` with why it has none). What needs the table's state (a seat's
turn, the limits, a card in a hand, the `seq` of a Pan decision being the current one) is the
table's to check.

Outbound: `TableState` (the envelope and the parts every game shares) with one model per
game's snapshot, `Refusal` (`{"type": "error", ...}`, to the sender only).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
)

from cardroom import registry
from cardroom.room.play.messages import MAX_KEY, MalformedMessage


def _not_blank(text: str) -> str:
    if not text.strip():
        raise ValueError("blank")
    return text


def trimmed(text: str) -> str:
    """A text that may not be blank, read without the spaces around it (as the table keeps a
    key, a void's reason, a Pan command)."""
    return _not_blank(text).strip()


@dataclass(frozen=True)
class Refuses:
    """A field type's refusal: the end of the sentence refusing a value of that type."""

    sentence: str


Amount = Annotated[int, Field(description="an amount of money in integer cents")]
BuyIn = Annotated[Amount, Refuses("the buy-in is not an amount of money")]
Key = Annotated[str, StringConstraints(min_length=1, max_length=MAX_KEY),
                AfterValidator(trimmed),
                Field(description="the request's idempotency key: a retry with the same key "
                                  "and the same request is applied once"),
                Refuses(f"the request's reference must be a text of 1 to {MAX_KEY} characters")]
Reason = Annotated[str, StringConstraints(min_length=1, max_length=400),
                   AfterValidator(trimmed),
                   Refuses("the reason must be a text of 1 to 400 characters")]
ShortReason = Annotated[str, StringConstraints(min_length=1, max_length=200),
                        AfterValidator(_not_blank), Refuses("the reason must be a short text")]
Number = Annotated[int, Field(description="a seat or spot number")]
Spot = Annotated[Number | None, Refuses("choose a spot by its number")]


class Message(BaseModel):
    """A client's message to a table: a JSON object whose `type` says what to do."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)
    refusals: ClassVar[dict[str, str]] = {}
    """Per field (`bets.*`: a value inside it), the end of the sentence refusing it, where
    the field's type does not say it (`Refuses`)."""


# every game ---------------------------------------------------------------------------------
class Sit(Message):
    """Take a seat, buying in from the wallet."""

    type: Literal["sit"]
    buy_in: BuyIn
    key: Key


class Keyed(Message):
    """A message whose only field is its key."""

    key: Key


class Leave(Keyed):
    """Leave the seat; the stack goes back to the wallet."""

    type: Literal["leave"]


class Deal(Message):
    """Deal the hand (a seated player with wagers down, a dealer or the floor)."""

    type: Literal["deal"]


class Void(Message):
    """The floor voids the hand in progress: wagers back, who and why logged."""

    type: Literal["void"]
    reason: Reason


class Bet(Message):
    """A `bet` of any game that takes wagers (each game's model derives from it and names
    `key` and `bets` itself: declared here for the type checker only, so that each model keeps
    its own fields, in its own order, in the published schema)."""

    if TYPE_CHECKING:
        key: str
        bets: Any


class ChangeBets(Bet):
    """A `change_bets` of any game that takes wagers (each game's derives from its `bet`)."""


NoWagers = Annotated[dict[str, Amount], Field(max_length=0, description="withdraw them")]
"""A `change_bets` with no wagers: it withdraws them."""


# a game's timed turns (issue 23) ------------------------------------------------------------
class Back(Message):
    """A player who sat out after missed turns is dealt in again (issue 23, action timers)."""

    type: Literal["back"]


class ActFor(Message):
    """A dealer or the floor takes the default action for the player the hand waits for (one
    who walked away): stand at Super Pan 9, the default play at Pan (issue 23)."""

    type: Literal["act_for"]


def inbound(game: str) -> tuple[type[Message], ...]:
    """The messages the game's table reads: its live table's `messages` (`cardroom.registry`);
    none for a game not registered."""
    found = registry.find(game)
    if found is None:
        return ()
    live: Any = registry.load(found.live)
    return tuple(live.messages)


def read(game: str, msg: dict[str, Any]) -> Message | None:
    """The message as its model, or None for a type this game does not know (the table
    refuses it); a malformed one is `MalformedMessage` with the plain sentence of the first
    field at fault."""
    model = next((m for m in inbound(game)
                  if get_args(m.model_fields["type"].annotation)[0] == msg.get("type")), None)
    if model is None:
        return None
    try:
        return model.model_validate(msg)
    except ValidationError as exc:
        raise MalformedMessage(refusal(model, exc)) from None


def refusal(model: type[Message], exc: ValidationError) -> str:
    """The sentence for the first error: the inner value's own (`bets.wager`, `bets.*`) unless
    it is missing or not allowed there, else the field's."""
    fields = list(model.model_fields)

    def order(error: Any) -> tuple[int, int]:
        """Fields in the order the model names them; within one, its shape (a value missing
        or not allowed inside it) before its values, as the tables checked them."""
        loc = error["loc"]
        top = fields.index(loc[0]) if loc and loc[0] in fields else len(fields)
        return top, 0 if len(loc) > 1 and error["type"] in ("missing", "extra_forbidden") else 1

    error = min(exc.errors(), key=order)
    loc = [str(part) for part in error["loc"]]
    if len(loc) > 1 and error["type"] not in ("missing", "extra_forbidden"):
        for name in (f"{loc[0]}.{loc[1]}", f"{loc[0]}.*"):
            if name in model.refusals:
                return model.refusals[name]
    top = loc[0] if loc else ""
    field = model.model_fields.get(top)
    own = [m.sentence for m in field.metadata if isinstance(m, Refuses)] if field else []
    return model.refusals.get(top) or next(iter(own), "it is not a table request")


def inbound_schema(game: str) -> dict[str, Any]:
    """The JSON Schema of the messages a game's table reads (one of, by `type`)."""
    union: Any = Annotated[tuple_union(inbound(game)), Field(discriminator="type")]
    schema: dict[str, Any] = TypeAdapter(union).json_schema()
    schema["title"] = f"Messages to a {game} table"
    return schema


def tuple_union(models: tuple[type[BaseModel], ...]) -> Any:
    """`models[0] | models[1] | ...` as one type."""
    union: Any = models[0]
    for m in models[1:]:
        union = union | m
    return union


def schema_files() -> dict[str, str]:
    """The protocol's JSON Schema files (docs/protocol/), by name: the messages each game's
    table reads (`<game>-in.json`) and what a table sends (`out.json`)."""
    from cardroom.room.play.protocol_state import outbound_schema

    schemas = {f"{game}-in.json": inbound_schema(game) for game in registry.names()}
    schemas["out.json"] = outbound_schema()
    return {name: json.dumps(schema, indent=2, sort_keys=True) + "\n"
            for name, schema in schemas.items()}
