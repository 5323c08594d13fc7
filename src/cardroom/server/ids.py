"""Ids from a request, wherever they come from (a URL path, a form field, a query string, the
table socket's URL): range-checked before they reach the database, so a huge or malformed id
is refused in one sentence like an id that names nothing, never an integer overflow in SQLite
(from 2^63) or PostgreSQL (from 2^31) answered with a 500.

A route declares an id with one of the types below (`TableId`, `HandId`, `HitId` in a path;
`FormTableId`, `SlipNumber`, `NextSlipNumber` in a form); `id_refusal` turns their refusal
into the page's sentence (`app._invalid`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

from fastapi import Form, Path
from pydantic import BeforeValidator
from pydantic_core import PydanticCustomError

from cardroom.digits import whole_number

MAX_ROW_ID = 2**31 - 1
"""The largest id the books' `Integer` keys hold on both databases."""
REFUSED_ID = "refused_id"
"""The validation error type of an id out of range or not a number."""


def row_id(text: str) -> int | None:
    """The id `text` names, or None when it names no row (not a plain number, or out of
    range): for the table WebSocket too, whose refusal must be a message, not a failed
    handshake."""
    value = whole_number(text)
    return value if value is not None and 1 <= value <= MAX_ROW_ID else None


def _checked(refusal: str) -> BeforeValidator:
    """A validator that lets through a row id only; `refusal` (e.g. "there is no table {}")
    is the sentence for anything else, with the value as sent."""
    def check(value: object) -> int:
        found = row_id(value) if isinstance(value, str) else None
        if found is None:
            raise PydanticCustomError(REFUSED_ID, refusal.format(str(value).strip()[:40]))
        return found
    return BeforeValidator(check)


TableId = Annotated[int, Path(), _checked("there is no table {}")]
"""A table's id in a URL path."""
HandId = Annotated[int, Path(), _checked("there is no hand {}")]
HitId = Annotated[int, Path(), _checked("there is no jackpot hit {}")]
HeldId = Annotated[int, Path(), _checked("there is no held payout {}")]
ApprovalId = Annotated[int, Path(), _checked("there is no request for a signature numbered {}")]
ReportId = Annotated[int, Path(), _checked("there is no currency transaction report {}")]
ReceiptNumber = Annotated[int, Path(), _checked("there is no receipt number {}")]
"""A cage receipt's number (its ledger transaction's) in a URL path."""
CaseId = Annotated[int, Path(), _checked("there is no case {}")]
"""A suspicious-activity case's number in a URL path."""
FormEvidence = Annotated[int, Form(), _checked("there is no evidence numbered {}")]
"""The number of an alert, a currency transaction or a hand a case's form links."""
FormTableId = Annotated[int, Form(), _checked("there is no table {}")]
"""The table a form names (its `table_id` field)."""
FormCheckId = Annotated[int, Form(), _checked("there is no check {}")]
"""A check of the cage's register that a form names (its `check_id` field)."""
FormPatronId = Annotated[int, Form(), _checked("there is no patron {}")]
"""A patron a cage form names (its `patron_id` field)."""
FormEntryId = Annotated[int, Form(), _checked("there is no exclusion entry {}")]
"""A self-exclusion entry a form names (its `entry` field)."""
FormBreachId = Annotated[int, Form(), _checked("there is no breach {}")]
"""A self-exclusion breach a form names (its `breach` field)."""
SlipNumber = Annotated[int, Form(), _checked("{} is not a slip number")]
"""A slip's number in a form."""
NextSlipNumber = Annotated[int | None, Form(), _checked("{} is not a slip number")]
"""The number of a slip a form makes: left empty, the next of its series."""


def id_refusal(errors: Sequence[Any]) -> tuple[int, str] | None:
    """The status and sentence for a request refused for an id ("there is no hand
    99999999999": 404 for an id in the path, 400 in a form or query string), or None when
    no id was refused."""
    for error in errors:
        if isinstance(error, dict) and error.get("type") == REFUSED_ID:
            where = tuple(error.get("loc", ()))[:1]
            return (404 if where == ("path",) else 400), str(error.get("msg", ""))
    return None
