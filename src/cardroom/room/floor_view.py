"""What the floor page shows of every table, live: its game, the seats taken, the hand in
progress, the last result in words, and which irregularities the floor may record there. The
page polls it as JSON (`/floor/tables.json`) and redraws its rows; nothing here names a card."""

from __future__ import annotations

from typing import Any

from cardroom import registry
from cardroom.games.super_pan_9.events import IrregularityKind
from cardroom.room.hands import hand_title
from cardroom.room.protocol_state import BaccaratResult, HandResult, PanResult, VoidedHand
from cardroom.room.tables import TableRow

IRREGULARITY_GAMES = ("super-pan-9", "pai-gow")
"""The tables whose protocol takes `{"type": "irregularity", ...}` from the floor."""
IRREGULARITIES = {IrregularityKind.MISDEAL.value: "Misdeal",
                  IrregularityKind.EXPOSED_CARD.value: "Exposed card",
                  IrregularityKind.WRONG_CARD_COUNT.value: "Wrong card count"}


def last_result(last: HandResult | VoidedHand | None) -> str:
    """The table's last hand in a few plain words."""
    if last is None:
        return ""
    title = hand_title(last.hand, last.number)
    if isinstance(last, VoidedHand):
        return f"{title} voided by {last.by}: {last.reason}"
    if isinstance(last, BaccaratResult) and last.winner == "tie":
        return f"{title}: a tie"
    if isinstance(last, BaccaratResult | PanResult) and last.winner:
        return f"{title}: {last.winner} wins" + (
            f" ({last.reason})" if isinstance(last, PanResult) and last.reason is not None
            else "")
    return f"{title} settled"


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
            "irregularities": row.game in IRREGULARITY_GAMES}
