"""The records: the hands a viewer may read, one hand's replay and its history file."""

from __future__ import annotations

import json

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from cardroom.errors import CardroomError
from cardroom.room.errors import PermissionDenied
from cardroom.room.recall import file_withheld, history_of, recall_page
from cardroom.room.timezone import zone_name
from cardroom.server.deps import Render, RoomDep, Viewer
from cardroom.server.ids import HandId

router = APIRouter()


@router.get("/history", response_class=HTMLResponse)
def history(room: RoomDep, who: Viewer, page: Render, all: bool = False) -> HTMLResponse:
    rows = room.history(who, mine=not all, limit=50)
    return page("history.html", who, hands=rows, all=all, zone=zone_name())


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
