"""Co-signatures on the staff forms (issue 26, "Staff signatures that strangers can freeze"):
the floor's opener with the dealer's password is accepted after six wrong log-ins for the
dealer from anywhere, and 20 fills sent at once with the right passwords are all accepted."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx
from room.hashers import CountingHasher

from cardroom.room import ledger
from cardroom.room.accounts import Role, create_account
from cardroom.room.db import Storage
from cardroom.room.room import Room
from cardroom.server.app import create_app
from cardroom.shoe import SeededRandom

from .forms import PW, FormClient, log_in, said


def staffed_room(storage: Storage) -> tuple[FormClient, FormClient, FormClient]:
    """A baccarat table, and browsers logged in as the floor (fred), the cashier (cathy) and
    a stranger (not logged in); dan deals."""
    room = Room(storage, SeededRandom(3))
    room.start()
    with storage.unit() as conn:
        owner = create_account(conn, "olga", PW, Role.OWNER)
        for name, role in [("fred", Role.FLOOR), ("dan", Role.DEALER), ("cathy", Role.CASHIER)]:
            create_account(conn, name, PW, role)
    room.create_table(owner, "Mini 1", "baccarat")
    app = create_app(room)
    fred, cathy, stranger = FormClient(app), FormClient(app), FormClient(app)
    log_in(fred, "fred")
    log_in(cathy, "cathy")
    return fred, cathy, stranger


def open_table(fred: FormClient) -> httpx.Response:
    return fred.post("/floor/inventory/open", data={
        "table_id": "1", "counted": "0", "dealer": "dan", "dealer_password": PW},
        follow_redirects=False)


def test_six_wrong_log_ins_for_the_dealer_do_not_freeze_the_floors_opener(
        storage: Storage, hasher: CountingHasher) -> None:
    fred, _, stranger = staffed_room(storage)
    for i in range(6):
        r = stranger.post("/login", data={"username": "dan", "password": f"guess {i}"})
    assert r.status_code == 429  # the log-in backs off, as before
    assert said(open_table(fred)) == {"message": "opener number 1: $0.00"}


def test_20_fills_at_once_with_the_right_passwords_are_all_accepted(
        storage: Storage, hasher: CountingHasher) -> None:
    """Counted before the hash and given back after, 20 concurrent fills got 51 refusals."""
    fred, cathy, _ = staffed_room(storage)
    assert said(open_table(fred))["message"].startswith("opener")
    fill = {"table_id": "1", "amount": "10", "dealer": "dan", "dealer_password": PW,
            "floor": "fred", "floor_password": PW}
    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(lambda _: said(cathy.post("/cage/fill", data=fill,
                                                          follow_redirects=False)), range(20)))
    assert [a for a in answers if a.get("error")] == []
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.tray(1)) == 20 * 1_000
