"""Self-registration's limit is per device (issue 23: "three accounts per address per ten
minutes, which a front-desk kiosk hits at once"): each browser that opened the form holds a
device id the server signed, and its registrations count apart from other browsers at the
same address; a browser with no id, or one it made up, counts in its address's bucket
(docs/security.md)."""

from __future__ import annotations

from cardroom.room.people.accounts import REGISTRATIONS
from cardroom.room.room import Room
from cardroom.server import registrar
from cardroom.server.app import create_app

from .forms import FormClient

PW = "a phrase of unrelated words"


def browser(room: Room) -> FormClient:
    """A new browser that has opened the registration form."""
    client = FormClient(create_app(room))
    assert client.get("/register").status_code == 200
    return client


def register(client: FormClient, name: str) -> int:
    return client.post("/register", data={"username": name, "password": PW},
                       follow_redirects=False).status_code


def test_each_browser_at_one_address_has_its_own_count(room: Room) -> None:
    app = create_app(room)
    first = FormClient(app)
    first.get("/register")
    assert first.cookies.get(registrar.COOKIE)
    codes = [register(first, f"kiosk{i}") for i in range(REGISTRATIONS.free + 1)]
    assert codes == [303] * REGISTRATIONS.free + [429]
    second = FormClient(app)  # another phone on the same address (the test client's)
    second.get("/register")
    assert register(second, "phone0") == 303


def test_a_made_up_device_id_counts_by_address(room: Room) -> None:
    client = browser(room)
    codes = []
    for i in range(REGISTRATIONS.free + 1):
        client.cookies.delete(registrar.COOKIE)
        client.cookies.set(registrar.COOKIE, f"made-up-{i}.{'0' * 32}")
        codes.append(register(client, f"forged{i}"))
    assert codes == [303] * REGISTRATIONS.free + [429]
    other = browser(room)  # a browser with a real id is not held by the address's bucket
    assert register(other, "honest0") == 303
