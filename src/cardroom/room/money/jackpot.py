"""Persistence of progressive jackpot pools: the engine's `JackpotPool` is the arithmetic; its
money lives in the ledger account `jackpot:NAME` (which equals the meter), its posted amount and
daily posting in `jackpot_pools`. The pool only drops by an award or a logged two-person
adjustment."""

from __future__ import annotations

import json
import math
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection

from cardroom.money import Cents, form_amount, format_money, require_cents
from cardroom.progressive_pool import JackpotPool
from cardroom.room.money import ledger
from cardroom.room.money.progressive_terms import progressive
from cardroom.room.people.accounts import Account, Permission
from cardroom.room.storage import audit
from cardroom.room.storage.errors import LedgerError
from cardroom.room.storage.schema import jackpot_pools, progressive_changes, progressive_hits

__all__ = ["DEFAULT_POOL", "adjust", "as_held", "break_even_warning", "load_pool",
           "log_change", "post_daily", "save_pool"]

DEFAULT_POOL = progressive().pool
"""The room's progressive pool when a table's house rules link it to no other."""


def break_even_warning(pool: JackpotPool) -> str | None:
    """One sentence for the floor when the posted amount, or the meter that the next posting
    will show, passes the exact break-even: there the progressive favours the player. The
    break-even is shown rounded up to the cent, the least amount that passes it."""
    be = progressive().break_even()
    shown = format_money(math.ceil(be))
    if pool.posted > be:
        return (f"The posted jackpot {format_money(pool.posted)} is at or above its break-even "
                f"{shown}: the progressive now favours the player.")
    if pool.meter > be:
        return (f"The jackpot meter {format_money(pool.meter)} is at or above its break-even "
                f"{shown}: once posted, the progressive will favour the player.")
    return None


def load_pool(conn: Connection, name: str, seed: Cents, contribution: Cents) -> JackpotPool:
    """The pool `name`, created (and seeded from the house, in the ledger) on first use."""
    stored = _stored_pool(conn, name)
    if stored is not None:
        return stored
    pool = JackpotPool(seed, contribution, hold_top_award=True)
    opening = ledger.post(conn, f"jackpot-seed:{name}:initial", "jackpot-seed",
                          ledger.move(ledger.JACKPOT_SEED, ledger.jackpot(name), seed),
                          actor="house", memo="initial seed")
    conn.execute(insert(jackpot_pools).values(
        name=name, seed=seed, contribution=contribution, meter=pool.meter, posted=pool.posted,
        posted_on=None, seeded_total=pool.seeded_total, opening=pool.meter,
        opening_tx=opening.tx_id))
    audit.append(conn, "house", "jackpot.seed", {"pool": name, "seed": seed})
    return pool


def stored_pools(conn: Connection) -> dict[str, JackpotPool]:
    """Every pool the books hold, by name: a process that holds none of a pool's tables (a
    room of several processes, or every table of the pool closed) still shows its meter and
    posts its amount."""
    names = conn.execute(select(jackpot_pools.c.name).order_by(jackpot_pools.c.name)).scalars()
    return {name: pool for name in names if (pool := _stored_pool(conn, name)) is not None}


def _stored_pool(conn: Connection, name: str) -> JackpotPool | None:
    """The pool `name` as the books hold it; None before its first use."""
    r = conn.execute(select(jackpot_pools).where(jackpot_pools.c.name == name)).first()
    if r is None:
        return None
    pending = conn.execute(select(progressive_hits.c.id).where(
        progressive_hits.c.pool == name, progressive_hits.c.status != "paid")).first()
    return JackpotPool(int(r.seed), int(r.contribution), meter=int(r.meter),
                       posted=int(r.posted), posted_on=r.posted_on,
                       seeded_total=int(r.seeded_total),
                       reserve_per_wager=int(r.reserve_rate),
                       reserve_limit=int(r.reserve_limit), reserve=int(r.reserve),
                       maximum=int(r.maximum), hold_top_award=True,
                       locked=pending is not None)


def reload_pool(conn: Connection, name: str, pool: JackpotPool) -> None:
    """The shared `pool` object brought up to the books in place (issue 25: tables held by
    other processes of the room add to it and write it there)."""
    stored = _stored_pool(conn, name)
    if stored is not None:
        vars(pool).update({k: v for k, v in vars(stored).items() if k != "events"})


def _row(pool: JackpotPool) -> dict[str, Any]:
    """The pool's state as its `jackpot_pools` row holds it (`_stored_pool` reads it back)."""
    return {"seed": pool.seed, "contribution": pool.contribution_per_wager,
            "meter": pool.meter, "posted": pool.posted, "posted_on": pool.posted_on,
            "seeded_total": pool.seeded_total, "reserve_rate": pool.reserve_per_wager,
            "reserve_limit": pool.reserve_limit, "reserve": pool.reserve,
            "maximum": pool.maximum}


_COLUMNS = tuple(_row(JackpotPool(0, 0)))

def _as_held(lock: str) -> str:
    return (f"EXISTS (SELECT 1 FROM jackpot_pools WHERE name = :pool_name AND "
            f"({', '.join(_COLUMNS)}) IS NOT DISTINCT FROM ("
            + ", ".join(f"CAST(:pool_{c} AS {'DATE' if c == 'posted_on' else 'BIGINT'})"
                        for c in _COLUMNS) + f"){lock}) "
            "AND EXISTS (SELECT 1 FROM progressive_hits WHERE pool = :pool_name "
            "AND status <> 'paid') = CAST(:pool_locked AS BOOLEAN)")


_AS_HELD = {True: _as_held(" FOR NO KEY UPDATE"), False: _as_held("")}


def as_held(name: str, pool: JackpotPool, lock: bool = True) -> tuple[str, dict[str, Any]]:
    """PostgreSQL: an SQL condition, with its parameters, that is true while the books hold
    the pool `name` as `pool` holds it in memory (every column `reload_pool` reads, and
    whether a hit awaits payment) (issue 25: an action of a process of several checks it in
    a statement nothing waits for, instead of reading the pool again at every action,
    `leases.guard`). With `lock` (an action that may change the pool) the pool's row is
    then locked to the commit, so no other process changes it meanwhile; without (an action
    that only reads it, such as a bet), nothing is locked and tables of two processes linked
    to the pool do not take turns on its row."""
    return _AS_HELD[lock], {"pool_name": name, "pool_locked": pool.locked,
                            **{f"pool_{c}": v for c, v in _row(pool).items()}}


def save_pool(conn: Connection, name: str, pool: JackpotPool) -> None:
    """Write the pool's state; the ledger must hold its meter and its hidden reserve."""
    conn.execute(update(jackpot_pools).where(jackpot_pools.c.name == name)
                 .values(**_row(pool)))
    held = ledger.balance(conn, ledger.jackpot(name))
    hidden = ledger.balance(conn, ledger.jackpot_reserve(name))
    if held != pool.meter or hidden != pool.reserve:
        raise LedgerError(f"jackpot {name}: the ledger holds {held} and {hidden} in reserve "
                          f"but the meter is {pool.meter} and the reserve {pool.reserve}")


def post_daily(conn: Connection, who: Account, name: str, pool: JackpotPool,
               day: date) -> None:
    """The daily posting: the posted amount becomes the meter (Super-9 rules)."""
    who.require(Permission.ADJUST_JACKPOT)
    pool.post(day)
    save_pool(conn, name, pool)
    audit.append(conn, who.username, "jackpot.post",
                 {"pool": name, "day": day.isoformat(), "posted": pool.posted})


def log_change(conn: Connection, name: str, kind: str, first: Account, second: Account,
               reason: str, before: dict[str, int], after: dict[str, int]) -> None:
    """One line of the controller's change log: who (two accounts), why, values before and
    after (GLI-12: every change to a progressive's settings or meter is logged)."""
    conn.execute(insert(progressive_changes).values(
        pool=name, at=datetime.now(UTC), kind=kind, first_by=first.username,
        second_by=second.username, reason=reason[:400], before_json=json.dumps(before),
        after_json=json.dumps(after)))


def adjust(conn: Connection, first: Account, second: Account, name: str, pool: JackpotPool,
           amount: Cents, reason: str, key: str) -> None:
    """A two-person correction of the meter, posted against the house adjustments account;
    either way at most what one form may carry (`money.MAX_FORM_CENTS`)."""
    first.require(Permission.ADJUST_JACKPOT)
    second.require(Permission.ADJUST_JACKPOT)
    form_amount(abs(require_cents(amount, "a jackpot adjustment")), "a jackpot adjustment")
    request = {"amount": amount, "reason": reason,
               "approvers": [first.username, second.username]}
    if ledger.replayed(conn, f"jackpot-adjust:{name}:{key}", "jackpot-adjust", request):
        return  # a retried request: applied once already
    before = (pool.meter, pool.posted, len(pool.events))
    pool.adjust(amount, first.username, second.username, reason)
    try:
        ledger.post(conn, f"jackpot-adjust:{name}:{key}", "jackpot-adjust",
                    ledger.move(ledger.JACKPOT_ADJUST, ledger.jackpot(name), amount),
                    actor=first.username, memo=reason, request=request)
        save_pool(conn, name, pool)
        log_change(conn, name, "adjust", first, second, reason, {"meter": before[0]},
                   {"meter": pool.meter})
    except Exception:
        pool.meter, pool.posted = before[0], before[1]
        del pool.events[before[2]:]
        raise
    audit.append(conn, first.username, "jackpot.adjust",
                 {"pool": name, "amount": amount, "approvers": [first.username,
                                                                second.username],
                  "reason": reason})
