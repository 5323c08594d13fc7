"""The audit check at 52,000 entries on SQLite: a full `integrity.check` (chain, MACs, the
ledger against the chain, the books) beside the plain hash chain alone, the `/audit` page's
incremental check after ten new transactions, and one page of the log unfiltered and filtered
by table.

Run: .venv/bin/python bench/bench_audit.py
"""

from __future__ import annotations

import tempfile
import time

from cardroom.room.money import ledger
from cardroom.room.storage import audit
from cardroom.room.storage.db import Storage, make_engine, migrate
from cardroom.room.trust import integrity

ROUNDS = 13_000
"""Four entries a round (a chip purchase, its ledger record, a bet, a settlement): 52,000."""


def main() -> None:
    engine = make_engine(f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
    migrate(engine)
    storage = Storage(engine, bytes(32))
    with storage.unit() as conn:
        for i in range(ROUNDS):
            ledger.post(conn, f"k{i}", "buy-chips", [(ledger.wallet(i % 50), 100),
                                                      (ledger.HOUSE_CAGE, -100)], actor="cage")
            audit.append(conn, "cage", "cashier.buy", {"amount": 100})
            audit.append(conn, "alice", "table.bet", {"table": i % 10, "i": i})
            audit.append(conn, "dealer", "hand.settled", {"table": i % 10, "i": i})
    with storage.snapshot() as conn:
        t = time.perf_counter()
        full = integrity.check(conn, storage.audit_key)
        full_s = time.perf_counter() - t
        t = time.perf_counter()
        audit.verify(conn)
        plain_s = time.perf_counter() - t
    with storage.unit() as conn:
        for i in range(10):
            ledger.post(conn, f"n{i}", "buy-chips", [(ledger.wallet(1), 100),
                                                     (ledger.HOUSE_CAGE, -100)], actor="cage")
    with storage.snapshot() as conn:
        t = time.perf_counter()
        step = integrity.check(conn, storage.audit_key, full.reached)
        step_s = time.perf_counter() - t
        t = time.perf_counter()
        audit.find(conn, audit.Filter())
        page_s = time.perf_counter() - t
        t = time.perf_counter()
        audit.find(conn, audit.Filter(table=3))
        table_s = time.perf_counter() - t
    assert full.ok and step.ok
    print(f"{full.entries} entries: full check {full_s:.2f} s (the plain hash chain alone, "
          f"what the page re-read on every load before: {plain_s:.2f} s); incremental check "
          f"after 10 transactions {step_s * 1000:.0f} ms; a page of 100 {page_s * 1000:.0f} ms, "
          f"filtered by table {table_s * 1000:.0f} ms")


if __name__ == "__main__":
    main()
