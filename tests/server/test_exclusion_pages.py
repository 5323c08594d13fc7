"""The self-exclusion pages (RCW 9.46.071; WAC 230-23-025/-030): registration refuses a listed
person with a neutral sentence; the page and its worklist are for the owner and the compliance
officer only; every staff page of theirs warns while the list is stale; an enrolment made on
the page opens its 72-hour form, marked forwarded by a person."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from room.exclusion_lists import ALAN, GRACE, KEY, OPERATOR, grace_patron, state_list
from sqlalchemy import select

from cardroom.room.compliance import exclusions
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.room import Room
from cardroom.room.storage.schema import accounts, audit_log
from cardroom.server.app import create_app

from .forms import PW, FormClient, logged_in


def _import(room: Room, hours_ago: float = 1) -> None:
    with room.storage.unit() as conn:
        exclusions.import_list(conn, OPERATOR, state_list(
            GRACE, ALAN, dated=datetime.now(UTC) - timedelta(hours=hours_ago)), KEY)


def test_registration_refuses_a_listed_person_with_a_neutral_sentence(room: Room) -> None:
    """RCW 9.46.071: the name and date of birth given at registration are checked; the person
    reads nothing about a list; the compliance officer finds the match in the audit log."""
    _import(room)
    client = FormClient(create_app(room))
    r = client.post("/register", data={"username": "gracie", "password": PW,
                                       "legal_name": "grace hopper",
                                       "date_of_birth": "1980-12-09"})
    assert r.status_code == 400 and exclusions.NEUTRAL in r.text
    assert "exclu" not in r.text.lower() and "list" not in r.text.lower()
    with room.storage.read() as conn:
        assert conn.execute(select(accounts).where(accounts.c.username == "gracie")).first() \
            is None
        assert conn.execute(select(audit_log.c.detail).where(
            audit_log.c.action == "exclusion.match")).scalar_one().count("registration") == 1
    r = client.post("/register", data={"username": "ada", "password": PW,
                                       "legal_name": "Ada Lovelace",
                                       "date_of_birth": "1990-12-10"}, follow_redirects=False)
    assert r.status_code == 303
    form = client.get("/register").text
    assert 'name="legal_name"' in form and 'name="date_of_birth"' in form


def test_the_page_is_for_owner_and_compliance_and_staff_pages_warn_when_stale(
        room: Room) -> None:
    """WAC 230-23-025 (confidential) and -030 (updates within 48 hours)."""
    with room.storage.unit() as conn:
        for name, role in (("olivia", Role.OWNER), ("connie", Role.COMPLIANCE),
                           ("cathy", Role.CASHIER), ("alice", Role.PLAYER)):
            create_account(conn, name, PW, role)
    _import(room, hours_ago=50)
    connie = logged_in(room, "connie")
    page = connie.get("/exclusions")
    assert page.status_code == 200 and "Alan Turing" in page.text
    assert 'id="exclusion-warning"' in connie.get("/lobby").text
    for name in ("cathy", "alice"):
        other = logged_in(room, name)
        assert other.get("/exclusions").status_code == 403
        lobby = other.get("/lobby").text
        assert "exclusion" not in lobby.lower() and "Turing" not in lobby
    _import(room, hours_ago=1)
    assert 'id="exclusion-warning"' not in logged_in(room, "olivia").get("/lobby").text


def test_an_enrolment_on_the_page_opens_its_form_and_is_marked_forwarded(room: Room) -> None:
    """WAC 230-23-030: the form is due within 72 hours; a person marks it forwarded."""
    with room.storage.unit() as conn:
        olivia = create_account(conn, "olivia", PW, Role.OWNER)
        cathy = create_account(conn, "cathy", PW, Role.CASHIER)
        create_account(conn, "connie", PW, Role.COMPLIANCE)
        grace = grace_patron(conn, cathy)
    _import(room)
    connie = logged_in(room, "connie")
    r = connie.post("/exclusions/enrol", data={"patron": str(grace.id), "years": "1"})
    assert r.status_code == 200 and "forward the form to the commission by" in r.text
    with room.storage.read() as conn:
        [form] = exclusions.worklist(conn, olivia).forms
    assert form.form_due is not None and 'id="forwarded-' in r.text
    r = connie.post("/exclusions/forwarded", data={"entry": str(form.id)})
    assert "marked forwarded" in r.text and 'id="no-forms"' in r.text
    r = connie.post("/exclusions/enrol", data={"patron": "999", "years": "1"})
    assert "There is no such patron." in r.text
    r = connie.post("/exclusions/confiscate", data={"username": "olivia"})
    assert "Olivia is not on the self-exclusion list: nothing is confiscated." in r.text
