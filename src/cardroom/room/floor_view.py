"""What the floor page shows of every table, live: its game, the seats taken, the hand in
progress, the last result in words, and which irregularities the floor may record there. The
page polls it as JSON (`/floor/tables.json`) and redraws its rows; nothing here names a card."""

from __future__ import annotations

from typing import Any

from cardroom import registry
from cardroom.room.hands import hand_title
from cardroom.room.protocol_state import HandResult, VoidedHand
from cardroom.room.tables import TableRow

IRREGULARITIES = {"misdeal": "Misdeal", "exposed-card": "Exposed card",
                  "wrong-card-count": "Wrong card count"}
"""What the floor may record at a table whose game takes `{"type": "irregularity", ...}`
(its live table's `floor_irregularities`), by the protocol's `kind`."""


def last_result(last: HandResult | VoidedHand | None) -> str:
    """The table's last hand in a few plain words."""
    if last is None:
        return ""
    title = hand_title(last.hand, last.number)
    if isinstance(last, VoidedHand):
        return f"{title} voided by {last.by}: {last.reason}"
    words = last.outcome_words()
    return f"{title}: {words}" if words else f"{title} settled"


def live_class(game: str) -> Any:
    """The game's live table class (the registry's `live`)."""
    return registry.load(registry.game(game).live)


def table_summary(row: TableRow, live: Any | None) -> dict[str, Any]:
    """One table's row on the floor page (`live`: the open table, None when it is closed)."""
    seated = len(getattr(live, "seated", {})) if live is not None else 0
    bots = len(getattr(getattr(live, "engine", None), "bots", {}) or {})
    hand = getattr(live, "hand_id", None)
    number = getattr(live, "hand_number", None) if hand else None
    return {"id": row.id, "name": row.name, "game": registry.title(row.game),
            "open": live is not None, "players": seated + bots,
            "seats": getattr(live, "max_seats", None),
            "hand": hand, "hand_number": number,
            "hand_title": hand_title(hand, number) if hand else None,
            "last": last_result(getattr(live, "last", None)),
            "irregularities": live_class(row.game).floor_irregularities}
