"""The progressive controller (Super-9 "PROGRESSIVE JACKPOT"; GLI-12 as adopted by state rules):
settings changed by two people with a reason, meters per table and award level, top-award hits
that lock the pool until a floor supervisor and a second person verify the hand (its recall)
and it is paid, the surveillance check of a win over $3,000, and the reconciliation of all of it
with the ledger.

The engine's `JackpotPool` is the arithmetic; the pool's money is in the ledger: the meter in
`jackpot:NAME`, the hidden reserve in `jackpot-reserve:NAME`, awards hit and not yet paid in
`jackpot-pending:NAME`. Each coup with progressive wagers posts its contribution as its own
transaction (kind `jackpot-contribution`); a top award moves the shares to the pending account
(`jackpot-hit`) and reseeds the meter (`jackpot-seed`); payment moves the shares to the
winners' wallets (`jackpot-pay`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.money import Cents, form_amount, format_money
from cardroom.progressive_pool import JackpotPool
from cardroom.room.compliance import surveillance, w2g
from cardroom.room.money import hands, ledger, progressive_funds
from cardroom.room.money.jackpot import log_change, save_pool
from cardroom.room.money.progressive_terms import progressive
from cardroom.room.people.accounts import Account, Permission, Role
from cardroom.room.play import recall
from cardroom.room.storage import audit
from cardroom.room.storage.errors import NotFound, PermissionDenied
from cardroom.room.storage.schema import (
    accounts,
    jackpot_pools,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    progressive_award_meters,
    progressive_changes,
    progressive_hits,
    progressive_table_meters,
    room_tables,
)
from cardroom.room.storage.settings import GamblingClock
from cardroom.room.storage.timezone import room_time

LEVELS = ("one_suited_nine", "both_suited_nine", "both_suited_ace_eight", "jackpot")
"""The award levels of the Super-9 jackpot pay table, lowest first."""


def gambling_day(at: datetime) -> date:
    """The day a meter counts in: the room's gambling day (`settings.GamblingClock`), the same
    day as the games and cage reports'."""
    return GamblingClock.from_env().day_of(at)


# settings ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Settings:
    """What the controller is set to: the reset (seed), the contribution, the hidden
    reserve's rate and limit and the posted maximum prize, in cents (rates are cents of each
    $1 wager)."""

    seed: Cents
    contribution: Cents
    reserve_rate: Cents = 0
    reserve_limit: Cents = 0
    maximum: Cents = 0
    """The optional maximum prize (WAC 230-15-685(4)); 0: none."""

    def check(self) -> None:
        terms = progressive()
        if self.seed < terms.least_seed:
            raise CardroomError(f"the reset amount must be at least "
                                f"{format_money(terms.least_seed)} ({terms.seed_clause})")
        form_amount(self.seed, "the reset amount")
        least = int(terms.least_contribution * 100)
        if not least <= self.contribution <= 100:
            raise CardroomError(f"the contribution must be between {least} cents and $1 of each "
                                f"$1 wager ({terms.contribution_clause})")
        if self.reserve_rate < 0 or self.contribution + self.reserve_rate > 100:
            raise CardroomError("the hidden rate cannot be negative, and with the "
                                "contribution it cannot pass $1 of each $1 wager")
        form_amount(self.reserve_limit, "the hidden limit", allow_zero=True)
        if self.reserve_rate and not self.reserve_limit:
            raise CardroomError("a hidden rate needs a hidden limit above zero")
        form_amount(self.maximum, "the maximum prize", allow_zero=True)
        if self.maximum and self.maximum < self.seed:
            raise CardroomError("the maximum prize cannot be below the reset amount")


def settings_of(pool: JackpotPool) -> Settings:
    return Settings(pool.seed, pool.contribution_per_wager, pool.reserve_per_wager,
                    pool.reserve_limit, pool.maximum)


def two_people(first: Account, second: Account) -> None:
    """GLI-12 two-person control: two different accounts, each allowed to adjust the jackpot."""
    first.require(Permission.ADJUST_JACKPOT)
    second.require(Permission.ADJUST_JACKPOT)
    if first.id == second.id:
        raise PermissionDenied("refused: the second approver must be another person")


def change_settings(conn: Connection, first: Account, second: Account, name: str,
                    pool: JackpotPool, new: Settings, reason: str) -> None:
    """Change the controller's settings, approved by two people, with the reason and the values
    before and after logged. A new reset amount applies at the next reset; the rates and the
    maximum prize from the next coup. The meter is not touched (an adjustment does that): a
    maximum prize is at least the jackpot when it is imposed (WAC 230-15-685(4))."""
    two_people(first, second)
    if not reason.strip():
        raise CardroomError("a settings change needs a reason")
    new.check()
    old = settings_of(pool)
    if new == old:
        raise CardroomError("these are the settings already in use: nothing to change")
    if new.maximum and new.maximum < max(pool.meter, pool.posted):
        raise CardroomError(f"the maximum prize must be at least the jackpot now, "
                            f"{format_money(max(pool.meter, pool.posted))} "
                            "(WAC 230-15-685(4))")
    _apply(pool, new)
    try:
        save_pool(conn, name, pool)
    except Exception:
        _apply(pool, old)
        raise
    log_change(conn, name, "settings", first, second, reason.strip(), asdict(old), asdict(new))
    audit.append(conn, first.username, "jackpot.settings", {
        "pool": name, "approvers": [first.username, second.username], "reason": reason.strip(),
        "before": asdict(old), "after": asdict(new)})


def _apply(pool: JackpotPool, settings: Settings) -> None:
    pool.seed, pool.contribution_per_wager = settings.seed, settings.contribution
    pool.reserve_per_wager, pool.reserve_limit = settings.reserve_rate, settings.reserve_limit
    pool.maximum = settings.maximum


# a coup's contribution and awards ------------------------------------------------------------
@dataclass(frozen=True)
class PoolState:
    meter: Cents
    posted: Cents
    seeded_total: Cents
    reserve: Cents
    locked: bool

    @classmethod
    def of(cls, pool: JackpotPool) -> PoolState:
        return cls(pool.meter, pool.posted, pool.seeded_total, pool.reserve, pool.locked)

    def restore(self, pool: JackpotPool) -> None:
        pool.meter, pool.posted, pool.seeded_total = self.meter, self.posted, self.seeded_total
        pool.reserve, pool.locked = self.reserve, self.locked


@dataclass(frozen=True)
class CoupAwards:
    """What one coup did to the progressive at one table."""

    wagers: int
    coin_in: Cents
    levels: Mapping[str, tuple[int, Cents]]
    """Award level → (hands that hit it, amount won: the "for 1" pay or the jackpot share)."""
    shares: Mapping[int, Cents]
    """Account id → its share of a top award (empty when the top award did not hit)."""


def record_coup(conn: Connection, name: str, pool: JackpotPool, before: PoolState,
                table_id: int, hand_id: int, coup: CoupAwards) -> int | None:
    """Post the coup's contribution and a top award, held pending, and count the meters; the
    pool has already played the coup (`before` is how it stood). Returns the pending hit's id
    when the top award hit.

    The contribution goes straight from the house's own funds (`house:bank`) to the pool:
    Super-9, "For every 1$ dropped the house will add a minimum of .20 cents". The $1
    progressive wager stays whole in the table's tray (WAC 230-15-500: the tray holds chips;
    20 cents of a wager is no chip), so the tray's books stay what its count finds."""
    now = datetime.now(UTC)
    awarded = sum(coup.shares.values())
    house_seed = pool.seeded_total - before.seeded_total
    from_reserve = pool.seed - house_seed if awarded else 0
    to_reserve = pool.reserve - before.reserve + from_reserve
    contributed = pool.meter - before.meter + awarded - (house_seed + from_reserve)
    ledger.post(conn, f"hand:{hand_id}:progressive", "jackpot-contribution",
                [(ledger.HOUSE_BANK, -(contributed + to_reserve)),
                 (ledger.jackpot(name), contributed),
                 (ledger.jackpot_reserve(name), to_reserve)],
                actor="dealer", memo=f"hand {hand_id}: {coup.wagers} progressive wager(s)")
    _count(conn, progressive_table_meters, {"pool": name, "table_id": table_id,
                                            "day": gambling_day(now)},
           {"wagers": coup.wagers, "coin_in": coup.coin_in, "contributed": contributed,
            "reserved": to_reserve})
    for level, (hits, won) in coup.levels.items():
        _count(conn, progressive_award_meters, {"pool": name, "table_id": table_id,
                                                "day": gambling_day(now), "level": level},
               {"hits": hits, "won": won})
    hit_id = None
    if awarded:
        ledger.post(conn, f"hand:{hand_id}:jackpot-hit", "jackpot-hit",
                    ledger.move(ledger.jackpot(name), ledger.jackpot_pending(name), awarded),
                    actor="dealer", memo=f"hand {hand_id}: top award held for verification")
        ledger.post(conn, f"hand:{hand_id}:jackpot-seed", "jackpot-seed",
                    [(ledger.JACKPOT_SEED, -house_seed),
                     (ledger.jackpot_reserve(name), -from_reserve),
                     (ledger.jackpot(name), pool.seed)],
                    actor="house", memo=f"reset after the top award of hand {hand_id}")
        hit_id = conn.execute(insert(progressive_hits).values(
            pool=name, table_id=table_id, hand_id=hand_id, at=now, amount=awarded,
            shares_json=json.dumps({str(k): v for k, v in coup.shares.items()}),
            reseed_house=house_seed, reseed_reserve=from_reserve, status="pending")
            .returning(progressive_hits.c.id)).scalar_one()
        audit.append(conn, "dealer", "jackpot.hit", {
            "pool": name, "hit": hit_id, "table": table_id, "hand": hand_id,
            "amount": awarded, "shares": {str(k): v for k, v in coup.shares.items()}})
    save_pool(conn, name, pool)
    return hit_id


def _count(conn: Connection, table: Any, key: dict[str, Any], add: dict[str, int]) -> None:
    """Add to one meter row (made at zero on first use)."""
    where = [table.c[k] == v for k, v in key.items()]
    if conn.execute(select(table.c.pool).where(*where)).first() is None:
        conn.execute(insert(table).values(**key, **add))
        return
    conn.execute(update(table).where(*where).values(
        **{k: table.c[k] + v for k, v in add.items()}))


# a pending top award: verification, surveillance, payment -----------------------------------
@dataclass(frozen=True)
class Hit:
    id: int
    pool: str
    table_id: int
    hand_id: int
    at: datetime
    amount: Cents
    shares: dict[int, Cents]
    reseed_house: Cents
    reseed_reserve: Cents
    status: str
    verified_by: str | None
    second_by: str | None
    verified_at: datetime | None
    verify_note: str | None
    surveillance_by: str | None
    surveillance_note: str | None
    surveillance_at: datetime | None
    paid_by: str | None
    paid_at: datetime | None

    @property
    def surveillance_over(self) -> Cents:
        """The profile's figure on the hit's gambling day (WAC 230-15-320(4) under the state
        profile): a share above it is checked on camera before it is paid (the one figure of
        `surveillance.threshold`, as for every other payout)."""
        return surveillance.threshold(self.at)

    @property
    def needs_surveillance(self) -> bool:
        return any(v > self.surveillance_over for v in self.shares.values())


def _hit(row: Any) -> Hit:
    data = dict(row._mapping)
    data["shares"] = {int(k): int(v) for k, v in json.loads(data.pop("shares_json")).items()}
    return Hit(**data)


def get_hit(conn: Connection, hit_id: int) -> Hit:
    row = conn.execute(select(progressive_hits).where(progressive_hits.c.id == hit_id)).first()
    if row is None:
        raise NotFound(f"there is no jackpot hit {hit_id}")
    return _hit(row)


def list_hits(conn: Connection, pool: str | None = None, day: date | None = None
              ) -> list[Hit]:
    q = select(progressive_hits).order_by(progressive_hits.c.id.desc())
    if pool is not None:
        q = q.where(progressive_hits.c.pool == pool)
    hits = [_hit(r) for r in conn.execute(q)]
    return [h for h in hits if day is None or gambling_day(h.at) == day]


def pending_hits(conn: Connection, pool: str) -> list[Hit]:
    return [h for h in list_hits(conn, pool) if h.status != "paid"]


def _not_a_winner(who: Account, hit: Hit) -> None:
    surveillance.not_a_winner(who, hit.shares, "jackpot")


def verify(conn: Connection, floor: Account, second: Account, hit_id: int, note: str) -> Hit:
    """A floor supervisor and a second person (another staff account) verify the hand: the
    controller recalls the coup (replays its recorded history through the engine) and refuses
    unless the recall agrees with the record and shows the top award."""
    floor.require(Permission.ADJUST_JACKPOT)
    if second.role is Role.PLAYER or second.id == floor.id:
        raise PermissionDenied("refused: the second verifier must be another member of staff")
    hit = get_hit(conn, hit_id)
    _not_a_winner(floor, hit)
    _not_a_winner(second, hit)
    if hit.status != "pending":
        raise CardroomError(f"jackpot hit {hit_id} is already {hit.status}")
    if not note.strip():
        raise CardroomError("write what was checked in the recall of the hand")
    replay = recall.replay(hands.hand_record(conn, hit.hand_id))
    if not replay.ok or replay.record.get("result", {}).get("jackpot_award") != "jackpot":
        raise CardroomError(f"the recall of hand {hit.hand_id} does not show the top award: "
                            "the hit cannot be verified; call the manager")
    conn.execute(update(progressive_hits).where(progressive_hits.c.id == hit_id).values(
        status="verified", verified_by=floor.username, second_by=second.username,
        verified_at=datetime.now(UTC), verify_note=note.strip()[:400]))
    audit.append(conn, floor.username, "jackpot.verify", {
        "hit": hit_id, "hand": hit.hand_id, "second": second.username, "note": note[:400]})
    return get_hit(conn, hit_id)


def record_surveillance(conn: Connection, who: Account, hit_id: int, note: str) -> Hit:
    """The surveillance check of the hand on camera (required before paying a win over
    $3,000), recorded by a person with the surveillance duty (`surveillance.require_duty`:
    the floor, the owner or the auditor), the same check as every held wager payout's."""
    surveillance.require_duty(who)
    hit = get_hit(conn, hit_id)
    _not_a_winner(who, hit)
    if hit.status == "paid":
        raise CardroomError(f"jackpot hit {hit_id} is already paid")
    note = surveillance.require_note(note)
    conn.execute(update(progressive_hits).where(progressive_hits.c.id == hit_id).values(
        surveillance_by=who.username, surveillance_note=note,
        surveillance_at=datetime.now(UTC)))
    audit.append(conn, who.username, "jackpot.surveillance", {"hit": hit_id,
                                                               "note": note[:400]})
    return get_hit(conn, hit_id)


def pay(conn: Connection, who: Account, hit_id: int, pool: JackpotPool) -> Hit:
    """Pay a verified top award to the winners' wallets; the pool takes awards again once no
    other hit is pending. A share that needs a Form W-2G waits until its winner's identity is
    on file (`w2g.require_identity`); the tax withheld from it goes to `w2g.WITHHOLDING` and
    the wallet gets the rest (compliance.md, "Taxes on jackpots")."""
    who.require(Permission.ADJUST_JACKPOT)
    hit = get_hit(conn, hit_id)
    _not_a_winner(who, hit)
    if hit.status == "paid":
        raise CardroomError(f"jackpot hit {hit_id} is already paid")
    if hit.status != "verified":
        raise CardroomError("the hand must be verified by a floor supervisor and a second "
                            "person before the jackpot is paid")
    if hit.needs_surveillance and hit.surveillance_at is None:
        raise CardroomError(f"a win over {format_money(hit.surveillance_over)} needs the "
                            "surveillance check recorded before it is paid")
    w2g.require_identity(conn, hit.shares, hit.at)
    paid = w2g.payments(hit.shares, hit.at)
    withheld = sum(p.withheld for p in paid)
    ledger.post(conn, f"jackpot-pay:{hit.pool}:{hit_id}", "jackpot-pay",
                [(ledger.jackpot_pending(hit.pool), -hit.amount)]
                + [(ledger.wallet(p.account_id), p.net) for p in paid]
                + ([(w2g.WITHHOLDING, withheld)] if withheld else []),
                actor=who.username, memo=f"top award of hand {hit.hand_id}")
    w2g.record_forms(conn, who.username, pool=hit.pool, hit_id=hit_id, hand_id=hit.hand_id,
                     table_id=hit.table_id, won_at=hit.at, paid=paid)
    conn.execute(update(progressive_hits).where(progressive_hits.c.id == hit_id).values(
        status="paid", paid_by=who.username, paid_at=datetime.now(UTC)))
    audit.append(conn, who.username, "jackpot.pay", {
        "hit": hit_id, "amount": hit.amount,
        "shares": {str(k): v for k, v in hit.shares.items()},
        **({"withheld": {str(p.account_id): p.withheld for p in paid if p.withheld}}
           if withheld else {})})
    if not pending_hits(conn, hit.pool):
        pool.release()
    return get_hit(conn, hit_id)


# meters, reconciliation, report ------------------------------------------------------------
def _sum_by(conn: Connection, table: Any, cols: tuple[str, ...], keys: tuple[str, ...],
            day: date | None) -> dict[tuple[Any, ...], dict[str, int]]:
    q = select(*(table.c[k] for k in keys), *(func.sum(table.c[c]).label(c) for c in cols)
               ).group_by(*(table.c[k] for k in keys))
    if day is not None:
        q = q.where(table.c.day == day)
    return {tuple(getattr(r, k) for k in keys): {c: int(getattr(r, c) or 0) for c in cols}
            for r in conn.execute(q)}


def _ledger_by_kind(conn: Connection, account: str, after_tx: int) -> dict[str, int]:
    rows = conn.execute(
        ledger.entry_rows(ledger_transactions.c.kind, func.sum(ledger_entries.c.amount))
        .where(ledger_accounts.c.name == account, ledger_transactions.c.id > after_tx)
        .group_by(ledger_transactions.c.kind))
    return {str(k): int(v or 0) for k, v in rows}


def reconcile(conn: Connection, name: str) -> list[str]:
    """The controller's records against the ledger, one sentence per disagreement (none when
    they agree): the meter, the reserve and the pending awards against their accounts, and
    the meters (contributions, awards, resets, adjustments) against the ledger's entries, and
    the tax withheld on its W-2G forms against what its payments posted to the withholding
    account."""
    row = conn.execute(select(jackpot_pools).where(jackpot_pools.c.name == name)).one()
    out: list[str] = []

    def check(what: str, controller: int, books: int) -> None:
        if controller != books:
            out.append(f"{name}: {what}: the controller shows {format_money(controller)} but "
                       f"the ledger {format_money(books)}")

    check("meter", int(row.meter), ledger.balance(conn, ledger.jackpot(name)))
    check("hidden reserve", int(row.reserve),
          ledger.balance(conn, ledger.jackpot_reserve(name)))
    hits = list_hits(conn, name)
    opened = int(row.opening_tx)
    check("awards pending", sum(h.amount for h in hits if h.status != "paid"),
          ledger.balance(conn, ledger.jackpot_pending(name)))
    meters = _sum_by(conn, progressive_table_meters, ("contributed", "reserved"), ("pool",),
                     None).get((name,), {"contributed": 0, "reserved": 0})
    adjusted = sum(json.loads(r.after_json)["meter"] - json.loads(r.before_json)["meter"]
                   for r in conn.execute(select(progressive_changes).where(
                       progressive_changes.c.pool == name, progressive_changes.c.kind == "adjust")))
    main = _ledger_by_kind(conn, ledger.jackpot(name), opened)
    check("contributions", meters["contributed"], main.get("jackpot-contribution", 0))
    check("top awards", -sum(h.amount for h in hits), main.get("jackpot-hit", 0))
    check("resets", sum(h.reseed_house + h.reseed_reserve for h in hits),
          main.get("jackpot-seed", 0))
    check("adjustments", adjusted, main.get("jackpot-adjust", 0))
    check("tax withheld (W-2G)", sum(w2g.withheld_by_form(conn, name).values()),
          w2g.withheld_in_ledger(conn, name))
    hidden = _ledger_by_kind(conn, ledger.jackpot_reserve(name), opened)
    check("reserve contributions", meters["reserved"], hidden.get("jackpot-contribution", 0))
    check("meter from its records", int(row.opening) + meters["contributed"] + adjusted
          + sum(h.reseed_house + h.reseed_reserve - h.amount for h in hits),
          int(row.meter))
    return out


def meter_series(conn: Connection, name: str) -> list[tuple[datetime, Cents]]:
    """The meter after each change of the pool: one point per hand (its contribution, and a
    top award with the reset that follows it, are one change) and per other transaction."""
    rows = conn.execute(
        ledger.entry_rows(ledger_transactions.c.created_at, ledger_transactions.c.key,
                          ledger_entries.c.amount)
        .where(ledger_accounts.c.name == ledger.jackpot(name))
        .order_by(ledger_transactions.c.id))
    out: list[tuple[datetime, Cents]] = []
    meter, last_group = 0, None
    for at, key, amount in rows:
        meter += int(amount)
        at = at if at.tzinfo else at.replace(tzinfo=UTC)
        group = ":".join(key.split(":")[:2]) if key.startswith("hand:") else key
        if group == last_group:
            out[-1] = (out[-1][0], meter)
        else:
            out.append((at, meter))
        last_group = group
    return out


def report(conn: Connection, day: date | None = None) -> dict[str, Any]:
    """Every pool: settings, current and posted amounts, meters per table and award level (of
    `day`, or since the pool opened), the settings history, hits and payments, the
    reconciliation with the ledger (`problems`: empty when it holds), and its funds: the
    deposits to its bank account and what is due by when (`funds`, as of today: WAC
    230-15-455)."""
    names = {int(r.id): str(r.name) for r in conn.execute(select(room_tables.c.id,
                                                                 room_tables.c.name))}
    people = {int(r.id): str(r.username) for r in conn.execute(select(accounts.c.id,
                                                                      accounts.c.username))}
    tables = _sum_by(conn, progressive_table_meters,
                     ("wagers", "coin_in", "contributed", "reserved"), ("pool", "table_id"), day)
    levels = _sum_by(conn, progressive_award_meters, ("hits", "won"), ("pool", "level"), day)
    pools = []
    for row in conn.execute(select(jackpot_pools).order_by(jackpot_pools.c.name)):
        name = str(row.name)
        changes = [{"at": r.at.isoformat(), "kind": r.kind, "by": [r.first_by, r.second_by],
                    "reason": r.reason, "before": json.loads(r.before_json),
                    "after": json.loads(r.after_json)}
                   for r in conn.execute(select(progressive_changes)
                                         .where(progressive_changes.c.pool == name)
                                         .order_by(progressive_changes.c.id.desc()))
                   if day is None or gambling_day(r.at) == day]
        withheld = w2g.withheld_by_form(conn, name)
        per_table = [{"table_id": t, "table": names.get(t, str(t)), **m}
                     for (p, t), m in sorted(tables.items()) if p == name]
        pools.append({
            "pool": name,
            "settings": asdict(Settings(int(row.seed), int(row.contribution),
                                        int(row.reserve_rate), int(row.reserve_limit),
                                        int(row.maximum))),
            "meter": int(row.meter), "posted": int(row.posted),
            "posted_on": row.posted_on.isoformat() if row.posted_on else None,
            "reserve": int(row.reserve), "house_seeded": int(row.seeded_total),
            "tables": per_table,
            "totals": {k: sum(t[k] for t in per_table)
                       for k in ("wagers", "coin_in", "contributed", "reserved")},
            "levels": [{"level": lv, **levels.get((name, lv), {"hits": 0, "won": 0})}
                       for lv in LEVELS],
            "changes": changes,
            "hits": [{**_hit_json(h), "table": names.get(h.table_id, str(h.table_id)),
                      "winners": {people.get(a, str(a)): v for a, v in h.shares.items()},
                      "withheld": withheld.get(h.id, 0),
                      "identity_needed": [] if h.status == "paid" else [
                          {"player": m.player, "patron": m.patron_id, "what": m.what}
                          for m in w2g.missing_identity(conn, h.shares, h.at)]}
                     for h in list_hits(conn, name, day)],
            "problems": reconcile(conn, name),
            "funds": progressive_funds.funds(conn, name).to_json(),
            "deposits": progressive_funds.deposits_json(conn, name),
        })
    return {"day": day.isoformat() if day else None, "pools": pools}


def _hit_json(h: Hit) -> dict[str, Any]:
    data = asdict(h)
    data["shares"] = {str(k): v for k, v in h.shares.items()}
    data["needs_surveillance"] = h.needs_surveillance
    data["surveillance_over"] = h.surveillance_over
    for k, v in data.items():
        if isinstance(v, datetime):
            data[k] = v.isoformat()
    return data


def meter_chart(conn: Connection, name: str) -> str | None:
    """The meter over time as an SVG chart (matplotlib, rendered here on the server with the
    dossier's chart helper); None before the pool has two readings."""
    series = meter_series(conn, name)
    if len(series) < 2:
        return None
    from cardroom.analysis.dossier.charts import line_chart

    start = series[0][0]
    span = (series[-1][0] - start).total_seconds()
    unit, seconds = ("days", 86_400) if span > 2 * 86_400 else ("hours", 3_600)
    xs = [(at - start).total_seconds() / seconds for at, _ in series]
    return line_chart(f"Jackpot meter, pool {name}", f"{unit} since {room_time(start)}",
                      "meter ($)", [("meter", xs, [m / 100 for _, m in series])])


CSV_FIELDS = ("record", "pool", "table", "level", "at", "kind", "by", "reason", "count",
              "cents", "detail")
"""The columns of the report as CSV: one row per figure, meter, award level, change or hit."""


def csv_rows(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The report (`report`) as CSV rows (`CSV_FIELDS`), for the CLI and the page alike."""
    rows: list[dict[str, Any]] = []
    for p in data["pools"]:
        pool = p["pool"]
        rows += [{"record": name, "pool": pool, "cents": p[name]}
                 for name in ("meter", "posted", "reserve", "house_seeded")]
        rows += [{"record": "setting", "pool": pool, "kind": name, "cents": value}
                 for name, value in p["settings"].items()]
        rows += [{"record": name, "pool": pool, "table": t["table"], "count": t["wagers"],
                  "cents": t[name]}
                 for t in p["tables"] for name in ("coin_in", "contributed", "reserved")]
        rows += [{"record": "award", "pool": pool, "level": lv["level"], "count": lv["hits"],
                  "cents": lv["won"]} for lv in p["levels"]]
        rows += [{"record": "change", "pool": pool, "at": c["at"], "kind": c["kind"],
                  "by": "+".join(c["by"]), "reason": c["reason"],
                  "detail": json.dumps({"before": c["before"], "after": c["after"]})}
                 for c in p["changes"]]
        rows += [{"record": "hit", "pool": pool, "table": h["table"], "at": h["at"],
                  "kind": h["status"], "by": "+".join(
                      b for b in (h["verified_by"], h["second_by"], h["paid_by"]) if b),
                  "count": len(h["winners"]), "cents": h["amount"],
                  "detail": json.dumps(h["winners"])} for h in p["hits"]]
        rows += [{"record": "problem", "pool": pool, "detail": problem}
                 for problem in p["problems"]]
        rows += [{"record": "deposit", "pool": pool, "at": d["deposited_on"],
                  "by": d["deposited_by"], "reason": d["reference"], "cents": d["amount"],
                  "detail": f"recorded by {d['recorded_by']}"} for d in p["deposits"]]
        f = p["funds"]
        rows += [{"record": "funds-due", "pool": pool, "at": f["due_by"] or "",
                  "kind": "overdue" if f["overdue"] else "due", "cents": f["due"],
                  "detail": f["status"]}]
    return rows


def describe(values: Mapping[str, int]) -> str:
    """Settings (or a meter) in words, for a person: "reset $2,500.00, contribution 20 cents
    of each $1, ..."."""
    words = {"seed": lambda v: f"reset {format_money(v)}",
             "contribution": lambda v: f"contribution {v} cents of each $1",
             "reserve_rate": lambda v: f"hidden rate {v} cents of each $1",
             "reserve_limit": lambda v: f"hidden limit {format_money(v)}",
             "maximum": lambda v: (f"maximum prize {format_money(v)}" if v
                                   else "no maximum prize"),
             "meter": lambda v: f"meter {format_money(v)}"}
    return ", ".join(words[k](v) if k in words else f"{k} {v}" for k, v in values.items())
