"""Self-exclusion (issue 22; RCW 9.46.071, chapter 230-23 WAC): the state's list imported,
matching, a listed person refused at the cage, at a seat and at a payout, in-room enrolment and
its 72-hour worklist, and a breach that removes, confiscates and opens its notice. Runs on
SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

import pytest
from sqlalchemy import select, text

from cardroom.room.books.cashier import redeem_chips, sell_chips
from cardroom.room.compliance import exclusions
from cardroom.room.compliance.exclusions import CONFISCATED, NEUTRAL, Excluded, ExclusionError
from cardroom.room.money import ledger
from cardroom.room.people import patrons
from cardroom.room.people.accounts import Role, create_account
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import PermissionDenied
from cardroom.room.storage.schema import exclusion_entries
from cardroom.room.trust import integrity

from .exclusion_lists import ALAN, GRACE, KEY, OPERATOR, grace_patron, import_grace, state_list
from .rooms import CAST, make_room, unexplained_today

STAFF = (*CAST, ("cathy", Role.CASHIER), ("connie", Role.COMPLIANCE))


def test_import_replaces_the_state_list_keeps_history_and_is_idempotent(
        storage: Storage) -> None:
    """RCW 9.46.071, WAC 230-23-030: the state's list loads with its own date; the same list
    again changes nothing; a later list replaces it (a person it drops comes off, the row
    stays as history); the import is audited with counts, never a name (WAC 230-23-025)."""
    first = state_list(GRACE, ALAN)
    with storage.unit() as conn:
        done = exclusions.import_list(conn, OPERATOR, first, KEY)
        again = exclusions.import_list(conn, OPERATOR, first, KEY)
    assert (done.entries, done.added, done.removed, done.replayed) == (2, 2, 0, False)
    assert again.replayed and again.list_id == done.list_id
    later = datetime.now(UTC) - timedelta(minutes=5)
    with storage.unit() as conn:
        second = exclusions.import_list(conn, OPERATOR, state_list(
            ALAN, "Ada Lovelace,1815-12-10,,3", dated=later), KEY)
    assert (second.entries, second.added, second.removed) == (2, 1, 1)
    with storage.read() as conn:
        rows = conn.execute(select(exclusion_entries.c.legal_name, exclusion_entries.c.active,
                                   exclusion_entries.c.removed_list)
                            .order_by(exclusion_entries.c.id)).all()
        assert [(r.legal_name, r.active) for r in rows] == [
            ("Hopper, Grace", False), ("Alan Turing", True), ("Ada Lovelace", True)]
        assert rows[0].removed_list == second.list_id
        log = " ".join(r[0] for r in conn.execute(text(
            "SELECT detail FROM audit_log WHERE action = 'exclusion.import'")))
        assert log.count('"added"') == 2 and "Turing" not in log and "Hopper" not in log
        with pytest.raises(ExclusionError, match="dated before"):
            exclusions.import_list(conn, OPERATOR, state_list(
                GRACE, dated=later - timedelta(hours=3)), KEY)


def test_a_bad_line_is_refused_by_its_number_and_nothing_is_imported(storage: Storage) -> None:
    with storage.unit() as conn, pytest.raises(ExclusionError, match=r"Line 4 .* period"):
        exclusions.import_list(conn, OPERATOR, state_list(ALAN, "Bad Period,1990-01-01,,2"),
                               KEY)
    with storage.unit() as conn, pytest.raises(ExclusionError, match="list's date"):
        exclusions.import_list(conn, OPERATOR, "name,date of birth,identifiers,period\n", KEY)
    with storage.read() as conn:
        assert exclusions.list_status(conn).list_date is None


def test_the_list_is_stale_after_48_hours(storage: Storage) -> None:
    """WAC 230-23-030: list updates are applied within 48 hours (the profile's figure)."""
    dated = datetime.now(UTC) - timedelta(hours=47)
    with storage.unit() as conn:
        assert exclusions.list_status(conn).stale  # none imported
        import_grace(conn, dated=dated)
        assert not exclusions.list_status(conn).stale
        late = exclusions.list_status(conn, dated + timedelta(hours=48, minutes=1))
    assert late.stale and "more than 48 hours" in late.sentence()


def test_matching_by_name_and_birth_or_by_document_and_staff_clear_a_false_positive(
        storage: Storage) -> None:
    """The matching rule (docs/compliance.md): name (case, accents, commas and word order
    ignored) with the date of birth, or a listed document number (by its blind index)."""
    _, p, _ = make_room(storage, seed=1, cast=STAFF, buyers=())
    with storage.unit() as conn:
        import_grace(conn)
        grace = grace_patron(conn, p["cathy"], name="GRACE  hopper", number="OTHER 1")
        by_licence = grace_patron(conn, p["cathy"], name="Grace B. Murray")
        namesake = patrons.create(conn, p["cathy"], patrons.NewPatron(
            "Grace Hopper", "2 Elm St", grace.date_of_birth.replace(year=1981)), KEY)
        assert exclusions.is_excluded(conn, grace.id)
        assert exclusions.is_excluded(conn, by_licence.id)
        assert not exclusions.is_excluded(conn, namesake.id)
        entry = exclusions.matching_entry(conn, by_licence.id)
        assert entry is not None
        with pytest.raises(PermissionDenied):
            exclusions.clear_match(conn, p["cathy"], entry, by_licence.id, "twin")
        exclusions.clear_match(conn, p["connie"], entry, by_licence.id,
                               "the state's licence number belongs to her sister")
        assert not exclusions.is_excluded(conn, by_licence.id)
        assert not exclusions.marketing_allowed(conn, grace.id)  # WAC 230-23-020


def test_the_seated_players_check_finds_what_the_patron_check_finds(storage: Storage) -> None:
    """The matching rule (docs/compliance.md) as a table applies it to its players
    (`excluded_accounts`, one statement since issue 25): an account whose patron matches by
    name and birth, one whose patron matches by a document only, none for a namesake born
    another year or an account with no patron; a match staff cleared no longer counts. The
    same entries as the patron check (`matching_entry`), in a write unit (on PostgreSQL read
    ahead in its pipeline) as outside one."""
    _, p, _ = make_room(storage, seed=1, cast=STAFF, buyers=())
    with storage.unit() as conn:
        import_grace(conn)
        found = {"grace": grace_patron(conn, p["cathy"], name="Hopper, Grace", number="X 2"),
                 "licence": grace_patron(conn, p["cathy"], name="Grace B. Murray"),
                 "namesake": patrons.create(conn, p["cathy"], patrons.NewPatron(
                     "Grace Hopper", "2 Elm St", date(1981, 12, 9)), KEY)}
        players = {}
        for who, patron in [*found.items(), ("unknown", None)]:
            players[who] = create_account(conn, f"grace_{who}", "correct horse", Role.PLAYER)
            if patron is not None:
                patrons.link_account(conn, p["cathy"], players[who].id, patron.id)
        ids = [a.id for a in players.values()]
        expected = {players[who].id: exclusions.matching_entry(conn, found[who].id)
                    for who in ("grace", "licence")}
        assert None not in expected.values()
        assert exclusions.excluded_accounts(conn, ids) == expected
        exclusions.clear_match(conn, p["connie"], expected[players["licence"].id],
                               found["licence"].id, "the licence number is her sister's")
    with storage.unit() as conn:
        assert exclusions.excluded_accounts(conn, ids) == {
            players["grace"].id: expected[players["grace"].id]}
    with storage.read() as conn:
        assert exclusions.excluded_accounts(conn, ids) == {
            players["grace"].id: expected[players["grace"].id]}


def test_only_owner_and_compliance_read_the_list(storage: Storage) -> None:
    """WAC 230-23-025: the list is confidential."""
    _, p, _ = make_room(storage, seed=1, cast=STAFF, buyers=())
    with storage.unit() as conn:
        import_grace(conn)
        assert len(exclusions.entries(conn, p["connie"])) == 2
        assert len(exclusions.entries(conn, p["olivia"])) == 2
        for name in ("cathy", "fiona", "alice"):
            with pytest.raises(PermissionDenied):
                exclusions.entries(conn, p[name])
            with pytest.raises(PermissionDenied):
                exclusions.import_list(conn, p[name], state_list(GRACE), KEY)


def test_a_listed_patron_is_refused_at_the_cage_and_at_a_seat(storage: Storage) -> None:
    """RCW 9.46.071: no chips sold or redeemed (the cashier reads a plain sentence), no seat
    (the person reads a neutral sentence that names no list); the unlisted are served."""
    room, p, t = make_room(storage, "baccarat", seed=3, table="Mini 1", cast=STAFF,
                           buyers=("alice", "bob"))
    assert t is not None
    with storage.unit() as conn:
        grace_patron(conn, p["cathy"], p["alice"])
        import_grace(conn)
    with pytest.raises(Excluded, match="self-exclusion list") as sold, storage.unit() as conn:
        sell_chips(conn, p["cathy"], p["alice"], 5_000, "s1")
    assert "compliance officer" in str(sold.value)
    with pytest.raises(Excluded, match="pay them nothing"), storage.unit() as conn:
        redeem_chips(conn, p["cathy"], p["alice"], 5_000, "r1")
    with pytest.raises(Excluded) as seat:
        room.act(p["alice"], t, {"type": "sit", "buy_in": 10_000, "key": "s"})
    assert str(seat.value) == NEUTRAL and "exclu" not in NEUTRAL.lower()
    room.act(p["bob"], t, {"type": "sit", "buy_in": 10_000, "key": "s"})
    with storage.unit() as conn:
        sell_chips(conn, p["cathy"], p["bob"], 5_000, "s2")
        assert ledger.balance(conn, ledger.wallet(p["alice"].id)) == 100_000
    assert room.table(t).seated == {p["bob"].id: "bob"}


def test_a_breach_at_the_payout_removes_confiscates_and_opens_the_notice(
        storage: Storage) -> None:
    """WAC 230-23-030: a person listed while seated (the list updated mid-hand) is found at the
    settlement: removed from the table, the chips at stake, winnings included, confiscated to
    their own account (never their wallet), and the commission's notice due in 72 hours; the
    books and the audit chain verify after."""
    room, p, t = make_room(storage, "baccarat", seed=5, table="Mini 1", cast=STAFF,
                           buyers=("alice", "bob"))
    assert t is not None
    with storage.unit() as conn:
        grace = grace_patron(conn, p["cathy"], p["alice"])
    room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    room.act(p["alice"], t, {"type": "bet", "bets": {"player": 1_000}, "key": "b"})
    with storage.unit() as conn:
        import_grace(conn)
    before = datetime.now(UTC)
    room.act(p["alice"], t, {"type": "deal"})
    live = room.table(t)
    assert p["alice"].id not in live.seated
    with storage.read() as conn:
        taken = ledger.balance(conn, CONFISCATED)
        assert taken in (19_000, 20_000, 21_000)  # lost, pushed or won the $10 on Player
        assert ledger.balance(conn, ledger.stack(t, p["alice"].id)) == 0
        assert ledger.balance(conn, ledger.wallet(p["alice"].id)) == 80_000
        work = exclusions.worklist(conn, p["connie"])
        assert not exclusions.marketing_allowed(conn, grace.id)
        assert not integrity.check(conn, storage.audit_key).problems
        assert audit.verify(conn).ok and ledger.trial_balance(conn).ok
    assert unexplained_today(room) == []  # the confiscation is the breaches' (issue 23)
    [notice] = work.notices
    assert (notice.username, notice.table_id, notice.confiscated) == ("alice", t, taken)
    assert notice.place == f"table {live.name}" and notice.found_at >= before
    assert notice.notice_due - notice.found_at == timedelta(hours=72)
    assert work.overdue(notice.found_at + timedelta(hours=73)) == 1
    with storage.unit() as conn:
        exclusions.mark_notified(conn, p["connie"], notice.id)
        assert exclusions.worklist(conn, p["olivia"]).notices == ()


def test_an_in_room_enrolment_opens_its_72_hour_form_and_a_sweep_removes_the_seated(
        storage: Storage) -> None:
    """WAC 230-23-030: the owner or the compliance officer enrols a patron whose identity the
    cage checked; the form is due at the commission within 72 hours, marked forwarded by a
    person; the seated patron is removed by the sweep, their stack confiscated."""
    room, p, t = make_room(storage, "baccarat", seed=7, table="Mini 1", cast=STAFF,
                           buyers=("alice",))
    assert t is not None
    with storage.unit() as conn:
        grace = grace_patron(conn, p["cathy"], p["alice"])
        bare = patrons.create(conn, p["cathy"], patrons.NewPatron(
            "No Document", "3 Oak St", grace.date_of_birth), KEY)
    room.act(p["alice"], t, {"type": "sit", "buy_in": 30_000, "key": "s"})
    with storage.unit() as conn:
        with pytest.raises(PermissionDenied):
            exclusions.enrol(conn, p["cathy"], grace.id, 1)
        with pytest.raises(ExclusionError, match="identity"):
            exclusions.enrol(conn, p["connie"], bare.id, 1)
        with pytest.raises(ExclusionError, match="1, 3, 5 or 10"):
            exclusions.enrol(conn, p["connie"], grace.id, 2)
        entry = exclusions.enrol(conn, p["connie"], grace.id, 3)
    assert entry.form_due is not None and entry.period == "3 years"
    assert room.bar_excluded() == 1 and p["alice"].id not in room.table(t).seated
    with storage.unit() as conn:
        [form] = exclusions.worklist(conn, p["olivia"]).forms
        assert form.id == entry.id and ledger.balance(conn, CONFISCATED) == 30_000
        assert exclusions.worklist(conn, p["olivia"]).overdue(
            entry.form_due + timedelta(minutes=1)) == 2  # the form and the breach notice
        exclusions.mark_forwarded(conn, p["connie"], entry.id)
        with pytest.raises(ExclusionError, match="already"):
            exclusions.mark_forwarded(conn, p["olivia"], entry.id)
        assert exclusions.worklist(conn, p["olivia"]).forms == ()
        assert audit.verify(conn).ok and ledger.trial_balance(conn).ok


@pytest.mark.parametrize("game", ["pan", "pai-gow", "super-pan-9"])
def test_no_seat_at_any_game(storage: Storage, game: str) -> None:
    """RCW 9.46.071 (the whole facility, WAC 230-23-020): every game seats through the one
    `LiveTable.sit` (Pan's `sit`, double condition or not, goes through it), so a listed
    player gets no seat at any table."""
    room, p, t = make_room(storage, game, seed=2, table="One", cast=STAFF, buyers=("alice",))
    assert t is not None
    with storage.unit() as conn:
        grace_patron(conn, p["cathy"], p["alice"])
        import_grace(conn)
    with pytest.raises(Excluded, match="speak to a manager"):
        room.act(p["alice"], t, {"type": "sit", "buy_in": 20_000, "key": "s"})
    with storage.read() as conn:
        assert ledger.balance(conn, ledger.wallet(p["alice"].id)) == 100_000


def test_chips_refused_at_the_cage_are_confiscated_as_a_breach(storage: Storage) -> None:
    """WAC 230-23-030: the redemption refused, the compliance officer confiscates the chips the
    listed person holds at the cage; nobody unlisted can be treated so."""
    _, p, _ = make_room(storage, seed=1, cast=STAFF, buyers=("alice", "bob"))
    with storage.unit() as conn:
        grace_patron(conn, p["cathy"], p["alice"])
        import_grace(conn)
        with pytest.raises(ExclusionError, match="not on the self-exclusion list"):
            exclusions.breach_at_cage(conn, p["connie"], "bob")
        with pytest.raises(PermissionDenied):
            exclusions.breach_at_cage(conn, p["cathy"], "alice")
        found = exclusions.breach_at_cage(conn, p["connie"], "alice")
        assert (found.place, found.confiscated) == ("the cage", 100_000)
        assert ledger.balance(conn, ledger.wallet(p["alice"].id)) == 0
        assert ledger.balance(conn, CONFISCATED) == 100_000
        assert ledger.balance(conn, ledger.wallet(p["bob"].id)) == 100_000
        assert ledger.trial_balance(conn).ok and audit.verify(conn).ok
