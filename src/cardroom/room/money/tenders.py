"""What a player may pay for chips with, and where: a Washington card room gives no credit.

- WAC 230-06-035: no credit, loans or gifts to a player; payment in full before play, in cash,
  by check, gift certificate or card, or by debit card. WAC 230-15-150(1)(d): no credit to a
  person buying chips; checks only as WAC 230-06-005 allows. A marker (a signed IOU) is
  credit: it is refused everywhere (`require`).
- WAC 230-15-500(2): chips leave a table's tray for a player's cash or debit card; a check is
  taken at the cage only, where its data is recorded (`cardroom.room.books.checks`).

Each tender has its own ledger kind (`DROP_KINDS` at a table, `SALE_KINDS` at the cage), so the
drop and the cage's sales are counted and reported tender by tender. Buy-ins at a table against
a marker, written before the room refused credit, stay in the books as `MARKER_KIND` and are
reported as markers (historical)."""

from __future__ import annotations

from cardroom.errors import CardroomError

TENDERS = {"cash": "cash", "debit": "debit card", "check": "check"}
"""Each tender a chip sale may record, and how a person calls it."""
AT_TABLE = ("cash", "debit")
"""WAC 230-15-500(2): what may pay for chips from a table's tray."""
AT_CAGE = ("cash", "debit", "check")

DROP_KINDS = {"cash": "drop-cash", "debit": "drop-debit"}
"""The ledger kind of a buy-in at a table, per tender: the drop box holds the cash and the
debit card slips, counted apart."""
MARKER_KIND = "drop-marker"
"""A buy-in at a table against a marker, from before the room refused credit (history only)."""
MARKERS_LABEL = "markers (historical)"
"""Markers a room took before it refused credit, as the reports call them."""
DROPPED_KINDS = {**DROP_KINDS, "marker": MARKER_KIND}
"""Every ledger kind that put something into a drop box, the historical markers included."""

SALE_KINDS = {"cash": "cage-sale", "debit": "cage-sale-debit", "check": "cage-sale-check"}
"""The ledger kind of chips sold at the cage, per tender (`cage-sale` is the cash sale, as it
always was)."""

CREDIT_REFUSED = ("refused: a marker is credit, and a Washington card room gives no credit to "
                  "a player buying chips (WAC 230-06-035, 230-15-150(1)(d)): the player pays "
                  "in cash, by debit card, or by check at the cage")


def require(tender: str, allowed: tuple[str, ...], where: str) -> str:
    """`tender` if it may pay for chips `where` (one of `allowed`); a marker, or any other
    credit, is refused with the sections that forbid it."""
    tender = tender.strip().lower()
    if tender in ("marker", "credit", "iou"):
        raise CardroomError(CREDIT_REFUSED)
    if tender not in allowed:
        names = [TENDERS[t] for t in allowed]
        choices = ", ".join(names[:-1]) + f" or {names[-1]}"
        more = " (WAC 230-15-500(2)); a check is taken at the cage" \
            if "check" not in allowed else ""
        raise CardroomError(f"chips {where} are paid in {choices}{more}")
    return tender
