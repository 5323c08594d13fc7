"""What the `/history` page needs beside the route: the filter and the page number read from
the query string (a ValueError says in one sentence what is wrong), and the links to the
other pages of the same filter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Literal, cast

from cardroom import registry
from cardroom.room.money.hands import HandFilter
from cardroom.server.audit_view import query_day, query_number

HISTORY_PAGE = 25
"""Hands per page."""
OUTCOMES = {"won": "Won", "lost": "Lost"}
FILTER_KEYS = ("game", "table", "since", "until", "outcome")
"""The query's filter fields, kept on the pager's links."""


def hand_filter(q: Mapping[str, str], tables: Mapping[int, str]) -> HandFilter:
    """The filter the page's form asks for, among the room's games and `tables` (id ->
    name)."""
    game = q.get("game", "").strip() or None
    if game is not None and registry.find(game) is None:
        raise ValueError("Choose a game from the list.")
    table = query_number(q.get("table", "").strip(), "table")
    if table is not None and table not in tables:
        raise ValueError("Choose a table from the list.")
    outcome = q.get("outcome", "").strip() or None
    if outcome is not None and outcome not in OUTCOMES:
        raise ValueError("Choose won or lost, or every hand.")
    since = query_day(q.get("since", "").strip(), "from")
    until = query_day(q.get("until", "").strip(), "to")
    if since is not None and until is not None and until < since:
        raise ValueError("The to date comes before the from date.")
    return HandFilter(game=game, table=table, since=since, until=until,
                      outcome=cast(Literal["won", "lost"] | None, outcome))


def page_number(text: str | None) -> int:
    """The page asked for, from 1."""
    number = query_number((text or "").strip(), "page number")
    if number == 0:
        raise ValueError("The page number must be 1 or more.")
    return number or 1


def kept_query(q: Mapping[str, str]) -> dict[str, str]:
    """The query's filter (and the room-wide switch) for the pager's links."""
    return {k: q[k] for k in (*FILTER_KEYS, "all") if q.get(k, "").strip()}
