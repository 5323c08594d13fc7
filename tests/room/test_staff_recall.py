"""The floor decides a dispute by replaying the hand (issue 23, "The floor supervisor cannot
recall a hand"; WAC 230-15-060: the room posts how player disputes are resolved, and its
posted rules say the floor replays the hand): the floor recalls any hand of any table, the
dealer the hands of a table they dealt at that gaming day, whole, as staff; another dealer
and a player who did not play the hand are refused."""

from __future__ import annotations

import pytest
from server.forms import logged_in

from cardroom.room.people.accounts import Role
from cardroom.room.play.recall import file_withheld
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import PermissionDenied

from .rooms import CAST, make_room

STAFF = (*CAST, ("dan", Role.DEALER), ("dora", Role.DEALER), ("audrey", Role.AUDITOR))


def test_floor_and_the_tables_dealer_recall_a_hand_others_may_not(storage: Storage) -> None:
    """Dan deals Alice's coup at Mini 1. Fiona (floor) recalls it, Dan (its dealer that day)
    recalls it, both as staff (the whole hand, the file theirs); Dora, a dealer who did not
    deal at Mini 1, and Bob, who did not play, are refused with one sentence each."""
    room, p, t = make_room(storage, "baccarat", seed=7, table="Mini 1", cast=STAFF)
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "b"})
    room.act(p["dan"], t, {"type": "deal"})
    [hand] = room.history(p["alice"]).rows
    for name in ("fiona", "dan"):
        recalled = room.recall(p[name], hand["id"])
        assert recalled.ok and recalled.seen_by is None and file_withheld(recalled) is None
    assert room.recall(p["alice"], hand["id"]).seen_by == p["alice"].id
    fiona = logged_in(room, "fiona")
    page = fiona.get(f"/hands/{hand['id']}")
    assert page.status_code == 200 and "history.json" in page.text
    with pytest.raises(PermissionDenied, match=r"^you may recall only the hands of the tables "
                       r"you dealt that day$"):
        room.recall(p["dora"], hand["id"])
    with pytest.raises(PermissionDenied, match=r"^you may recall only the hands you played$"):
        room.recall(p["bob"], hand["id"])


def test_the_floor_lists_every_hand_a_player_only_their_own(storage: Storage) -> None:
    """The floor finds the disputed hand among every hand of the room (the floor page's
    "Every hand" link, /history?all=1), not only by a number the player reads out; a player
    asking for the room's list is refused with one sentence and sees no link to it."""
    room, p, t = make_room(storage, "baccarat", seed=7, table="Mini 1", cast=STAFF)
    assert t is not None
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 500}, "key": "b"})
    room.act(p["dan"], t, {"type": "deal"})
    [hand] = room.history(p["fiona"], mine=False).rows
    assert hand["table"] == "Mini 1"
    fiona = logged_in(room, "fiona")
    assert 'href="/history?all=1"' in fiona.get("/floor").text
    listed = fiona.get("/history?all=1")
    assert listed.status_code == 200 and f'href="/hands/{hand["id"]}"' in listed.text
    with pytest.raises(PermissionDenied, match=r"^you may list only the hands you played$"):
        room.history(p["bob"], mine=False)
    assert "/history?all=1" not in logged_in(room, "bob").get("/history").text
