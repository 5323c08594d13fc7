"""Suspicious activity: alerts and the compliance officer's cases (issue 22, "Suspicious
activity"; 31 CFR 1021.320).

The room raises an **alert** when a patron's currency transactions show a red flag of the
rule: structuring (several cash buys just under the log floor or the report threshold, in one
gaming day or on consecutive days), buying in big and cashing out with little play (the
patron's wagers are read from the ledger's wager postings and the hands they sat in), one
person transacting for others (several patrons' cash buys just under the log floor at one place,
by one employee, within minutes), a patron on the self-exclusion list, or a staff member's flag.
The figures are the profile's (`suspicious_activity`). Alerts are computed right after each
currency transaction has committed (`after_transaction`, run by `Storage.unit` after the
commit: it cannot slow or fail the sale) and for a whole gaming day (`scan_day`); one alert
per pattern, subject and gaming day.

The compliance officer opens a **case** from alerts or by hand: a narrative, its evidence (the
alerts, the currency transactions and the hands, linked), due 30 days from detection (a SAR is
filed within 30 days of the initial detection, 31 CFR 1021.320(b)(3)), and one decision: filed,
with the filing's BSA reference, or not filed, with the reasons.

Only the compliance role reads or writes any of it (`Permission.CASES`: not the owner). Nothing
here reaches a player: no page, message or receipt of theirs names it (31 CFR 1021.320(e)).
Nothing is ever deleted: this module has no delete path, rows are only inserted (a case's
decision is its one update), and each insert or decision is audited with a digest of the row,
so `audit verify` finds a row edited or removed (`problems`) without the audit trail, which the
owner and the auditor read, holding any of the contents.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection, Row

from cardroom import registry
from cardroom.errors import CardroomError
from cardroom.money import Cents, format_money
from cardroom.profile import Suspicion, profile_in_force
from cardroom.room.compliance import currency, exclusions
from cardroom.room.money import ledger
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage
from cardroom.room.storage.errors import NotFound
from cardroom.room.storage.schema import (
    accounts,
    compliance_alerts,
    compliance_case_entries,
    compliance_cases,
    currency_transactions,
    hand_players,
    hands,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    room_tables,
)
from cardroom.room.storage.schema import patrons as patrons_table
from cardroom.room.storage.settings import GamblingClock

STRUCTURING, LITTLE_PLAY, AGENT, EXCLUDED, BY_HAND = (
    "structuring", "little-play", "agent", "excluded", "by-hand")
KIND_WORDS = {STRUCTURING: "structuring", LITTLE_PLAY: "big buy-in, little play",
              AGENT: "one person for others", EXCLUDED: "on the exclusion list",
              BY_HAND: "flagged by staff"}
OPEN, FILED, NOT_FILED = "open", "filed", "not-filed"
STATUS_WORDS = {OPEN: "open", FILED: "SAR filed", NOT_FILED: "not filed"}
EVIDENCE = ("alert", "transaction", "hand")
NARRATIVE = "narrative"
SYSTEM = "room"
"""Who raises the alerts the room computes."""
MAX_TEXT, MAX_REFERENCE = 4000, 60
WAGER_KINDS = ("wager", *registry.play_kinds())
"""The ledger kinds that move a player's chips from their stack into play: a house-banked
game's wagers (`wager`, net of bets taken back) and a game's own kinds of play (Pan's antes and
payments, `pan`: what left the stack)."""


class CaseError(CardroomError):
    """A case or flag that cannot be recorded as asked, in one sentence."""


def rules(day: date) -> Suspicion:
    """The profile's suspicious-activity figures on `day`."""
    return profile_in_force().suspicious_activity.on(day)


def _aware(at: datetime) -> datetime:
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def _digest(row: dict[str, Any]) -> str:
    """A row's digest, as its audit entry holds it (moments in UTC, whatever the driver
    gives back)."""
    body = {k: (_aware(v).astimezone(UTC).isoformat() if isinstance(v, datetime)
                else v.isoformat() if isinstance(v, date) else v) for k, v in row.items()}
    return hashlib.sha256(audit.canonical(body).encode()).hexdigest()


# alerts --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Alert:
    """A red flag: its kind, its subject (a patron, or a player the cage has not identified,
    or none for a place's pattern), its gaming day, what it found, and its evidence."""

    id: int
    kind: str
    patron_id: int | None
    patron_name: str | None
    account_id: int | None
    gaming_day: date
    detected_at: datetime
    detected_by: str
    summary: str
    transactions: tuple[int, ...]
    hands: tuple[int, ...]

    @property
    def kind_words(self) -> str:
        return KIND_WORDS.get(self.kind, self.kind)

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "patron": self.patron_id,
                "patron_name": self.patron_name, "account": self.account_id,
                "gaming_day": self.gaming_day.isoformat(),
                "detected_at": _aware(self.detected_at).isoformat(),
                "detected_by": self.detected_by, "summary": self.summary,
                "transactions": list(self.transactions), "hands": list(self.hands)}


@dataclass(frozen=True)
class Found:
    """An alert the rules found, before it is stored."""

    key: str
    kind: str
    patron_id: int | None
    account_id: int | None
    day: date
    summary: str
    transactions: tuple[int, ...]
    hands: tuple[int, ...] = ()


Subject = tuple[int | None, int | None]
"""A patron (patron id, None), or a player the cage has not identified (None, account id)."""


def _subject(t: currency.Transaction) -> Subject:
    return (t.patron_id, None) if t.patron_id is not None else (None, t.account_id)


def _subject_key(s: Subject) -> str:
    return f"patron:{s[0]}" if s[0] is not None else f"account:{s[1]}"


def _near(t: currency.Transaction) -> str | None:
    """Which figure a cash buy is just under ("log floor", "report threshold"), if any: a buy
    at the floor is logged (not under it); one of exactly the threshold is not over it (a
    report is due for more than it), so it counts as just under."""
    if t.direction != currency.IN:
        return None
    r = rules(t.gaming_day)
    for words, limit, at_it in (("report threshold", currency.threshold(t.gaming_day), True),
                                ("log floor", currency.log_floor(t.gaming_day), False)):
        low, high = r.near(limit)
        if low <= t.amount < high or (at_it and t.amount == high):
            return f"{words} of {format_money(limit)}"
    return None


def structuring(subject: Subject, day: date, window: list[currency.Transaction]
                ) -> Found | None:
    """Several cash buys just under the log floor or the report threshold (`near_count`, each
    within `near_percent` below it) in the gaming day `day` or on it and the day before,
    together at least the SAR's amount, one of them on `day` (31 CFR 1021.320(a)(2)(i):
    structured to evade the reporting)."""
    r = rules(day)
    near = [(t, w) for t in window if (w := _near(t)) is not None
            and day - timedelta(days=1) <= t.gaming_day <= day]
    if len(near) < r.near_count or not any(t.gaming_day == day for t, _ in near):
        return None
    total = sum(t.amount for t, _ in near)
    if total < r.sar_cents:
        return None
    days = sorted({t.gaming_day.isoformat() for t, _ in near})
    under = sorted({w for _, w in near})
    return Found(f"{STRUCTURING}:{_subject_key(subject)}:{day.isoformat()}", STRUCTURING,
                 *subject, day, f"{len(near)} cash buys just under the {' or the '.join(under)}"
                 f", {format_money(total)} in all, on {' and '.join(days)}",
                 tuple(t.id for t, _ in near))


@dataclass(frozen=True)
class Play:
    """What a patron staked at the tables in a gaming day, and the hands they sat in."""

    wagered: Cents
    hands: tuple[int, ...]


def play(conn: Connection, subject: Subject, day: date,
         clock: GamblingClock | None = None) -> Play:
    """The subject's wagers in the gaming day, from the ledger (every `WAGER_KINDS` posting
    that took chips from their stack at a table), and the hands they played (`hand_players`)."""
    start, end = (clock or GamblingClock.from_env()).bounds(day)
    if subject[0] is not None:
        ids = [int(i) for i in conn.execute(select(accounts.c.id).where(
            accounts.c.patron_id == subject[0])).scalars()]
    else:
        ids = [int(subject[1] or 0)]
    wagered = 0
    for account_id in ids:
        moved = conn.execute(
            ledger.entry_rows(ledger_transactions.c.kind, ledger_entries.c.amount)
            .where(ledger_transactions.c.kind.in_(WAGER_KINDS),
                   ledger_transactions.c.created_at >= start,
                   ledger_transactions.c.created_at < end,
                   ledger_accounts.c.name.like(f"stack:%:{account_id}"))).all()
        wagered += -sum(int(a) for k, a in moved if k == "wager" or int(a) < 0)
    played = tuple(int(h) for h in conn.execute(
        select(hands.c.id).join(hand_players, hand_players.c.hand_id == hands.c.id)
        .where(hand_players.c.account_id.in_(ids), hands.c.opened_at >= start,
               hands.c.opened_at < end).order_by(hands.c.id)).scalars())
    return Play(max(0, wagered), played)


def little_play(subject: Subject, day: date, todays: list[currency.Transaction], staked: Play
                ) -> Found | None:
    """Buying in big and cashing out with little play: cash in of the day at least
    `little_play_in_cents`, cash out at least `little_play_out_percent` of it, and wagers under
    `little_play_wager_percent` of it (31 CFR 1021.320(a)(2)(iii): no apparent lawful purpose;
    the red flag of ../shared/reference/compliance.md)."""
    r = rules(day)
    cash_in = sum(t.amount for t in todays if t.direction == currency.IN)
    cash_out = sum(t.amount for t in todays if t.direction == currency.OUT)
    if cash_in < r.little_play_in_cents or cash_out * 100 < cash_in * r.little_play_out_percent:
        return None
    if staked.wagered * 100 >= cash_in * r.little_play_wager_percent:
        return None
    return Found(f"{LITTLE_PLAY}:{_subject_key(subject)}:{day.isoformat()}", LITTLE_PLAY,
                 *subject, day, f"cash in {format_money(cash_in)}, cash out "
                 f"{format_money(cash_out)}, wagered {format_money(staked.wagered)} in "
                 f"{len(staked.hands)} hands", tuple(t.id for t in todays), staked.hands)


def agents(day: date, todays: list[currency.Transaction]) -> list[Found]:
    """One person transacting for others: cash buys just under the log floor or the report
    threshold of at least `agent_patrons` different patrons at one place, by one employee,
    within `agent_minutes` (31 CFR 1021.320(a)(2)(i)); one alert per place, employee and day."""
    r = rules(day)
    span = timedelta(minutes=r.agent_minutes)
    by_desk: dict[tuple[str, str], list[currency.Transaction]] = {}
    for t in todays:
        if _near(t) is not None:
            by_desk.setdefault((t.place, t.employee), []).append(t)
    out = []
    for (place, employee), txs in sorted(by_desk.items()):
        txs.sort(key=lambda t: (t.at, t.id))
        best: list[currency.Transaction] = []
        for i, first in enumerate(txs):
            group = [t for t in txs[i:] if t.at - first.at <= span]
            if len({_subject(t) for t in group}) > len({_subject(t) for t in best}):
                best = group
        people = {_subject(t): t.who for t in best}
        if len(people) >= r.agent_patrons:
            out.append(Found(
                f"{AGENT}:{place}:{employee}:{day.isoformat()}", AGENT, None, None, day,
                f"{len(people)} patrons' cash buys just under a reporting figure at the "
                f"{best[0].where} by {employee} within {r.agent_minutes} minutes: "
                f"{', '.join(sorted(people.values()))}", tuple(t.id for t in best)))
    return out


is_excluded: Callable[[Connection, int], bool] = exclusions.is_excluded
"""Whether a patron is on the self-exclusion list (RCW 9.46.071;
`room/compliance/exclusions.py`)."""


def excluded(conn: Connection, subject: Subject, day: date,
             todays: list[currency.Transaction]) -> Found | None:
    """A patron on the self-exclusion list with cash in or out at the room (the list binds
    the room: RCW 9.46.071; an excluded person's cash is a red flag of funds from a breach)."""
    if subject[0] is None or not todays or not is_excluded(conn, subject[0]):
        return None
    return Found(f"{EXCLUDED}:{_subject_key(subject)}:{day.isoformat()}", EXCLUDED, *subject,
                 day, f"on the self-exclusion list, with {len(todays)} currency transactions "
                 f"on {day.isoformat()}", tuple(t.id for t in todays))


def _for_subject(conn: Connection, subject: Subject, day: date) -> list[Found]:
    window = [t for d in (day - timedelta(days=1), day)
              for t in currency.transactions(conn, day=d, patron_id=subject[0],
                                             account_id=subject[1])]
    todays = [t for t in window if t.gaming_day == day]
    found = [structuring(subject, day, window),
             little_play(subject, day, todays, play(conn, subject, day)),
             excluded(conn, subject, day, todays)]
    return [f for f in found if f is not None]


def _store(conn: Connection, found: Iterable[Found], actor: str) -> list[Alert]:
    """Store the alerts not yet raised (one per key), each audited with its digest only."""
    out = []
    for f in found:
        if conn.execute(select(compliance_alerts.c.id).where(
                compliance_alerts.c.key == f.key)).first():
            continue
        row = {"key": f.key, "kind": f.kind, "patron_id": f.patron_id,
               "account_id": f.account_id, "gaming_day": f.day,
               "detected_at": datetime.now(UTC).replace(microsecond=0),
               "detected_by": actor[:40], "summary": f.summary[:600],
               "evidence": json.dumps({"transactions": list(f.transactions),
                                       "hands": list(f.hands)})}
        aid = conn.execute(insert(compliance_alerts).values(**row)
                           .returning(compliance_alerts.c.id)).scalar_one()
        audit.append(conn, actor, "compliance.alert", {"alert": aid, "digest": _digest(row)})
        out.append(get_alert(conn, aid))
    return out


def after_transaction(storage: Storage, transaction_id: int) -> list[Alert]:
    """The alerts a currency transaction just committed raises (its subject's patterns of
    its gaming day, and its place's), in their own transaction: run by `Storage.unit` after
    the sale's commit (`currency.record` asks for it)."""
    with storage.unit() as conn:
        t = next(iter(currency.transactions_by_id(conn, [transaction_id])), None)
        if t is None:
            return []
        found = _for_subject(conn, _subject(t), t.gaming_day)
        found += [f for f in agents(t.gaming_day, currency.transactions(conn, day=t.gaming_day))
                  if t.id in f.transactions]
        return _store(conn, found, SYSTEM)


def scan_day(conn: Connection, staff: Account, day: date) -> list[Alert]:
    """Every alert of the gaming day `day`: the patterns of every subject with cash that day
    and of every place, those not yet raised stored now; all of the day's alerts returned."""
    staff.require(Permission.CASES)
    todays = currency.transactions(conn, day=day)
    found: list[Found] = []
    for subject in dict.fromkeys(_subject(t) for t in todays):
        found += _for_subject(conn, subject, day)
    _store(conn, [*found, *agents(day, todays)], staff.username)
    return alerts(conn, staff, day=day)


def flag(conn: Connection, staff: Account, player: Account, note: str) -> None:
    """A staff member flags a player's cash as suspicious by hand (e.g. one person handing
    over cash for others): an alert for the compliance officer. The cage or the floor may
    flag; what comes of it they do not see."""
    if not (staff.may(Permission.CAGE) or staff.may(Permission.DEAL)
            or staff.may(Permission.CASES)):
        staff.require(Permission.CAGE)
    text = " ".join(note.split())
    if not text:
        raise CaseError("Say in a few words what you saw.")
    from cardroom.room.people import patrons

    patron = patrons.patron_of(conn, player.id)
    subject: Subject = (patron.id, None) if patron else (None, player.id)
    day = GamblingClock.from_env().day_of(datetime.now(UTC))
    todays = currency.transactions(conn, day=day, patron_id=subject[0], account_id=subject[1])
    n = int(conn.execute(select(func.count()).select_from(compliance_alerts)).scalar_one())
    _store(conn, [Found(f"{BY_HAND}:{_subject_key(subject)}:{n + 1}", BY_HAND, *subject, day,
                        f"flagged by {staff.username}: {text[:500]}",
                        tuple(t.id for t in todays))], staff.username)


_ALERTS = select(compliance_alerts, patrons_table.c.legal_name).outerjoin(
    patrons_table, patrons_table.c.id == compliance_alerts.c.patron_id)


def _alert(r: Row[Any]) -> Alert:
    ev = json.loads(r.evidence)
    return Alert(r.id, r.kind, r.patron_id, r.legal_name, r.account_id, r.gaming_day,
                 _aware(r.detected_at), r.detected_by, r.summary,
                 tuple(ev.get("transactions", ())), tuple(ev.get("hands", ())))


def get_alert(conn: Connection, alert_id: int) -> Alert:
    r = conn.execute(_ALERTS.where(compliance_alerts.c.id == alert_id)).first()
    if r is None:
        raise NotFound("There is no such alert.")
    return _alert(r)


def alerts(conn: Connection, staff: Account, day: date | None = None) -> list[Alert]:
    """The alerts, newest gaming day first (of `day` only when given): the compliance
    officer's."""
    staff.require(Permission.CASES)
    query = _ALERTS if day is None else _ALERTS.where(compliance_alerts.c.gaming_day == day)
    return [_alert(r) for r in conn.execute(query.order_by(
        compliance_alerts.c.gaming_day.desc(), compliance_alerts.c.id))]


# cases ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hand:
    id: int
    table: str
    number: int
    opened_at: datetime
    status: str


@dataclass(frozen=True)
class Entry:
    id: int
    kind: str
    ref: int | None
    text: str | None
    at: datetime
    by: str


@dataclass(frozen=True)
class Case:
    """A suspicious-activity case and its narrative and evidence, resolved."""

    id: int
    patron_id: int | None
    account_id: int | None
    subject: str
    opened_at: datetime
    opened_by: str
    detected_on: date
    due: date
    status: str
    decided_at: datetime | None
    decided_by: str | None
    reference: str | None
    reasons: str | None
    entries: tuple[Entry, ...] = ()
    alerts: tuple[Alert, ...] = ()
    transactions: tuple[currency.Transaction, ...] = ()
    hands: tuple[Hand, ...] = field(default=())

    def overdue(self, today: date) -> bool:
        """Open past its due date (31 CFR 1021.320(b)(3): 30 days from detection)."""
        return self.status == OPEN and today > self.due

    @property
    def status_words(self) -> str:
        return STATUS_WORDS.get(self.status, self.status)

    @property
    def narrative(self) -> tuple[Entry, ...]:
        return tuple(e for e in self.entries if e.kind == NARRATIVE)

    def as_json(self, today: date | None = None) -> dict[str, Any]:
        return {"id": self.id, "patron": self.patron_id, "account": self.account_id,
                "subject": self.subject, "opened_at": _aware(self.opened_at).isoformat(),
                "opened_by": self.opened_by, "detected_on": self.detected_on.isoformat(),
                "due": self.due.isoformat(), "status": self.status,
                "overdue": self.overdue(today) if today else None,
                "decided_at": None if self.decided_at is None
                else _aware(self.decided_at).isoformat(),
                "decided_by": self.decided_by, "reference": self.reference,
                "reasons": self.reasons,
                "narrative": [{"at": _aware(e.at).isoformat(), "by": e.by, "text": e.text}
                              for e in self.narrative],
                "alerts": [a.id for a in self.alerts],
                "transactions": [t.id for t in self.transactions],
                "hands": [h.id for h in self.hands]}


def due_on(detected: date) -> date:
    """A SAR is filed within 30 days of the initial detection (31 CFR 1021.320(b)(3))."""
    return detected + timedelta(days=rules(detected).due_days)


def _text(text: str, what: str) -> str:
    said = text.strip()
    if not said:
        raise CaseError(f"Write the {what}.")
    if len(said) > MAX_TEXT:
        raise CaseError(f"The {what} is too long: at most {MAX_TEXT} characters.")
    return said


def _entry(conn: Connection, staff: Account, case_id: int, kind: str, ref: int | None,
           text: str | None) -> None:
    row = {"case_id": case_id, "kind": kind, "ref": ref, "text": text,
           "at": datetime.now(UTC).replace(microsecond=0), "by": staff.username[:40]}
    eid = conn.execute(insert(compliance_case_entries).values(**row)
                       .returning(compliance_case_entries.c.id)).scalar_one()
    audit.append(conn, staff.username, "compliance.case.entry",
                 {"case": case_id, "entry": eid, "digest": _digest(row)})


def _case_digest(conn: Connection, case_id: int) -> str:
    r = conn.execute(select(compliance_cases).where(compliance_cases.c.id == case_id)).one()
    return _digest(dict(r._mapping))


def open_case(conn: Connection, staff: Account, narrative: str, *,
              alert_ids: Iterable[int] = (), player: Account | None = None,
              subject: str = "", detected_on: date | None = None,
              today: date | None = None) -> Case:
    """Open a case from alerts (their subject, their evidence, detected when the first was)
    or by hand (about a player, or a subject in words; detected `detected_on`, or today), due
    30 days from detection, with its first narrative."""
    staff.require(Permission.CASES)
    said = _text(narrative, "narrative")
    picked = [get_alert(conn, a) for a in dict.fromkeys(alert_ids)]
    zone = GamblingClock.from_env().zone
    pid, aid, subject = _case_subject(conn, subject, player, picked)
    detected = min([a.detected_at.astimezone(zone).date() for a in picked]
                   + ([detected_on] if detected_on else [])
                   or [today or datetime.now(zone).date()])
    row = {"patron_id": pid, "account_id": aid, "subject": subject,
           "opened_at": datetime.now(UTC).replace(microsecond=0),
           "opened_by": staff.username[:40], "detected_on": detected, "due": due_on(detected),
           "status": OPEN}
    cid = conn.execute(insert(compliance_cases).values(**row)
                       .returning(compliance_cases.c.id)).scalar_one()
    audit.append(conn, staff.username, "compliance.case.open",
                 {"case": cid, "digest": _case_digest(conn, cid)})
    _entry(conn, staff, cid, NARRATIVE, None, said)
    for a in picked:
        _entry(conn, staff, cid, "alert", a.id, None)
        for t in a.transactions:
            _add_evidence(conn, staff, cid, "transaction", t)
        for h in a.hands:
            _add_evidence(conn, staff, cid, "hand", h)
    return get_case(conn, staff, cid)


def _case_subject(conn: Connection, subject: str, player: Account | None,
                  picked: list[Alert]) -> tuple[int | None, int | None, str]:
    """Whom a case is about: (patron id, account id when no patron is on file, the subject in
    words): the player named, else the first alert's subject, else the words given."""
    pid: int | None = None
    aid: int | None = None
    if player is not None:
        from cardroom.room.people import patrons

        patron = patrons.patron_of(conn, player.id)
        pid, aid = (patron.id, None) if patron else (None, player.id)
        subject = subject or (patron.legal_name if patron else f"{player.username} "
                              "(no patron on file)")
    elif picked:
        first = next((a for a in picked if a.patron_id or a.account_id), picked[0])
        pid, aid = first.patron_id, first.account_id
        subject = subject or first.patron_name or (
            _username(conn, aid) if aid else first.summary)
    subject = " ".join(subject.split())[:200]
    if not subject:
        raise CaseError("Name whom the case is about, or open it from an alert.")
    return pid, aid, subject


def _username(conn: Connection, account_id: int) -> str:
    name = conn.execute(select(accounts.c.username).where(
        accounts.c.id == account_id)).scalar_one_or_none()
    return f"{name} (no patron on file)" if name else f"account {account_id}"


def _add_evidence(conn: Connection, staff: Account, case_id: int, kind: str, ref: int) -> None:
    if conn.execute(select(compliance_case_entries.c.id).where(
            compliance_case_entries.c.case_id == case_id,
            compliance_case_entries.c.kind == kind,
            compliance_case_entries.c.ref == ref)).first() is None:
        _entry(conn, staff, case_id, kind, ref, None)


def add_note(conn: Connection, staff: Account, case_id: int, text: str) -> Case:
    """Add to the case's narrative (what the officer learned, did or decided); earlier
    entries stay as they were written."""
    staff.require(Permission.CASES)
    get_case(conn, staff, case_id)
    _entry(conn, staff, case_id, NARRATIVE, None, _text(text, "narrative"))
    return get_case(conn, staff, case_id)


def add_evidence(conn: Connection, staff: Account, case_id: int, kind: str, ref: int) -> Case:
    """Link an alert, a currency transaction or a hand to the case as evidence."""
    staff.require(Permission.CASES)
    get_case(conn, staff, case_id)
    table = {"alert": compliance_alerts, "hand": hands,
             "transaction": currency_transactions}.get(kind)
    if table is None:
        raise CaseError("Evidence is an alert, a currency transaction or a hand.")
    if conn.execute(select(table.c.id).where(table.c.id == ref)).first() is None:
        raise CaseError(f"There is no {kind} number {ref}.")
    _add_evidence(conn, staff, case_id, kind, ref)
    return get_case(conn, staff, case_id)


def decide(conn: Connection, staff: Account, case_id: int, filed: bool, text: str) -> Case:
    """Record the decision, once: a SAR filed (`text` the filing's BSA reference) or not
    filed (`text` the reasons, 31 CFR 1021.320: a decision not to file is documented)."""
    staff.require(Permission.CASES)
    case = get_case(conn, staff, case_id)
    if case.status != OPEN:
        raise CaseError(f"This case was already decided ({case.status_words}).")
    values: dict[str, Any] = {"decided_at": datetime.now(UTC).replace(microsecond=0),
                              "decided_by": staff.username[:40]}
    if filed:
        ref = " ".join(text.split())
        if not ref or len(ref) > MAX_REFERENCE:
            raise CaseError("Write the filing's reference (the BSA identifier FinCEN gave "
                            f"it), at most {MAX_REFERENCE} characters.")
        values.update(status=FILED, reference=ref)
    else:
        values.update(status=NOT_FILED, reasons=_text(text, "reasons for not filing"))
    conn.execute(update(compliance_cases).where(compliance_cases.c.id == case_id)
                 .values(**values))
    audit.append(conn, staff.username, "compliance.case.decided",
                 {"case": case_id, "digest": _case_digest(conn, case_id)})
    return get_case(conn, staff, case_id)


def _hands(conn: Connection, ids: list[int]) -> tuple[Hand, ...]:
    if not ids:
        return ()
    return tuple(Hand(r.id, r.name, r.number, _aware(r.opened_at), r.status) for r in
                 conn.execute(select(hands.c.id, hands.c.number, hands.c.opened_at,
                                     hands.c.status, room_tables.c.name)
                              .join(room_tables, room_tables.c.id == hands.c.table_id)
                              .where(hands.c.id.in_(ids)).order_by(hands.c.id)))


def _case(conn: Connection, r: Row[Any]) -> Case:
    base = Case(r.id, r.patron_id, r.account_id, r.subject, _aware(r.opened_at), r.opened_by,
                r.detected_on, r.due, r.status,
                None if r.decided_at is None else _aware(r.decided_at), r.decided_by,
                r.reference, r.reasons)
    entries = tuple(Entry(e.id, e.kind, e.ref, e.text, _aware(e.at), e.by) for e in
                    conn.execute(select(compliance_case_entries).where(
                        compliance_case_entries.c.case_id == r.id)
                        .order_by(compliance_case_entries.c.id)))
    refs = {k: [e.ref for e in entries if e.kind == k and e.ref is not None] for k in EVIDENCE}
    return replace(base, entries=entries,
                   alerts=tuple(get_alert(conn, a) for a in refs["alert"]),
                   transactions=tuple(currency.transactions_by_id(conn, refs["transaction"])),
                   hands=_hands(conn, refs["hand"]))


def get_case(conn: Connection, staff: Account, case_id: int) -> Case:
    """A case with its narrative and evidence resolved."""
    staff.require(Permission.CASES)
    r = conn.execute(select(compliance_cases).where(compliance_cases.c.id == case_id)).first()
    if r is None:
        raise NotFound("There is no such case.")
    return _case(conn, r)


def cases(conn: Connection, staff: Account, overdue_on: date | None = None) -> list[Case]:
    """The cases, the soonest due first (only those open past their due date on
    `overdue_on` when given)."""
    staff.require(Permission.CASES)
    out = [_case(conn, r) for r in conn.execute(
        select(compliance_cases).order_by(compliance_cases.c.due, compliance_cases.c.id))]
    return [c for c in out if overdue_on is None or c.overdue(overdue_on)]


# records -------------------------------------------------------------------------------------
def export(conn: Connection, staff: Account, today: date | None = None
           ) -> dict[str, list[dict[str, Any]]]:
    """Every alert and case, with each case's narrative and evidence, for an examiner (31 CFR
    1021.320(d): the SAR and its supporting documentation, kept five years)."""
    return {"alerts": [a.as_json() for a in alerts(conn, staff)],
            "cases": [c.as_json(today) for c in cases(conn, staff)]}


AUDITED = {"compliance.alert": ("alert", compliance_alerts),
           "compliance.case.open": ("case", compliance_cases),
           "compliance.case.decided": ("case", compliance_cases),
           "compliance.case.entry": ("entry", compliance_case_entries)}


def problems(conn: Connection) -> list[str]:
    """Every alert, case or case entry that differs from the digest its audit entry holds (the
    latest, for a decided case) or that has no audit entry: a row edited, inserted or deleted
    in the database (the records are never deleted: 31 CFR 1021.320(d), 1010.430(d))."""
    held: dict[tuple[str, int], str] = {}
    for e in audit.merged(conn, AUDITED):
        what, _ = AUDITED[e.action]
        detail = e.data
        held[(what, int(detail[what]))] = str(detail["digest"])
    out = []
    rows: dict[tuple[str, int], str] = {}
    for what, table in {v[0]: v[1] for v in AUDITED.values()}.items():
        for r in conn.execute(select(table)):
            rows[(what, int(r.id))] = _digest(
                {k: v for k, v in r._mapping.items() if what == "case" or k != "id"})
    for (what, rid), digest in sorted(rows.items()):
        if held.get((what, rid)) != digest:
            out.append(f"suspicious-activity {what} {rid} differs from its audit entry: "
                       "edited or inserted in the database")
    for what, rid in sorted(held.keys() - rows.keys()):
        out.append(f"suspicious-activity {what} {rid} is in the audit trail but not in the "
                   "books: deleted in the database")
    return out
