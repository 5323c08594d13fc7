"""The records: the hands a viewer may read, one hand's replay and its history file."""

from __future__ import annotations

import json

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from cardroom import registry
from cardroom.errors import CardroomError
from cardroom.room.money.hands import HandFilter
from cardroom.room.play.recall import file_withheld, history_of, recall_page
from cardroom.room.play.tables import list_tables
from cardroom.room.room import reads_every_hand
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.timezone import zone_name
from cardroom.server.deps import Render, RoomDep, Viewer
from cardroom.server.history_view import (
    HISTORY_PAGE,
    OUTCOMES,
    hand_filter,
    kept_query,
    page_number,
)
from cardroom.server.ids import HandId

router = APIRouter()


@router.get("/history", response_class=HTMLResponse)
def history(request: Request, room: RoomDep, who: Viewer, page: Render,
            all: bool = False) -> HTMLResponse:
    """The reader's hands (every hand, for a reader of every record), a page at a time and
    filtered; a filter it cannot read is said in one sentence and every hand is shown."""
    q = request.query_params
    with room.storage.read() as conn:
        tables = {t.id: t.name for t in list_tables(conn)}
    try:
        wanted, number = hand_filter(q, tables), page_number(q.get("page"))
    except ValueError as exc:
        wanted, number, error = HandFilter(), 1, str(exc)
    else:
        error = ""
    found = room.history(who, mine=not all, wanted=wanted, page=number,
                         per_page=HISTORY_PAGE)
    pages = max(1, -(-found.total // HISTORY_PAGE))
    return page("history.html", who, 400 if error else 200, hands=found.rows,
                total=found.total, number=number, pages=pages, all=all, zone=zone_name(),
                every_hand=reads_every_hand(who),
                wanted=wanted, tables=tables,
                games={g.name: g.title for g in registry.games()}, outcomes=OUTCOMES, error=error,
                query={} if error else kept_query(q))


@router.get("/hands/{hand_id}", response_class=HTMLResponse)
def hand(room: RoomDep, who: Viewer, page: Render, hand_id: HandId) -> HTMLResponse:
    replay = room.recall(who, hand_id)
    return page("hand.html", who, replay=replay, record=replay.record,
                withheld=file_withheld(replay), **recall_page(replay))


@router.get("/hands/{hand_id}/history.json", response_model=None)
def hand_history_file(room: RoomDep, who: Viewer, hand_id: HandId) -> Response:
    """The hand's history in the shared format, for `cardroom replay FILE`; refused where it
    would show the viewer a card he may not see (`file_withheld`)."""
    recalled = room.recall(who, hand_id)
    if (why := file_withheld(recalled)) is not None:
        raise PermissionDenied(why)
    try:
        document = history_of(recalled.record).to_json()
    except CardroomError as exc:  # an open hand, or a record of an older format
        return Response(json.dumps({"error": str(exc)}), status_code=400,
                        media_type="application/json")
    return Response(json.dumps(document, indent=1), media_type="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="hand-{hand_id}.json"'})
