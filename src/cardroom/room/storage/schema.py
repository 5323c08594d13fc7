"""The card room's tables (SQLAlchemy Core). Alembic migrations create them; this module is what
the code queries through. Money columns are BigInteger cents."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
    or_,
)

metadata = MetaData()

accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("username", String(40), nullable=False, unique=True),
    Column("password_hash", String(200), nullable=False),
    Column("role", String(16), nullable=False),
    Column("active", Boolean, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=True, index=True),
)
"""`patron_id`: the patron (`patrons`) a player's account belongs to, once the cage has seen
their identity (issue 22)."""

sessions = Table(
    "sessions", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

throttle = Table(
    "throttle", metadata,
    Column("key", String(120), primary_key=True),
    Column("attempts", Integer, nullable=False),
    Column("last_at", DateTime(timezone=True), nullable=False, index=True),
)

trusted_devices = Table(
    "trusted_devices", metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

ledger_accounts = Table(
    "ledger_accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(120), nullable=False, unique=True),
    Column("allow_negative", Boolean, nullable=False),
    Column("balance", BigInteger, nullable=False),
    CheckConstraint(or_(Column("allow_negative").is_(True), Column("balance") >= 0),
                    name="ck_ledger_accounts_never_negative"),
)

ledger_transactions = Table(
    "ledger_transactions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(160), nullable=False, unique=True),
    Column("fingerprint", String(64), nullable=False),
    Column("kind", String(40), nullable=False),
    Column("memo", String(400), nullable=False),
    Column("actor", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

ledger_entries = Table(
    "ledger_entries", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tx_id", Integer, ForeignKey("ledger_transactions.id"), nullable=False, index=True),
    Column("account_id", Integer, ForeignKey("ledger_accounts.id"), nullable=False, index=True),
    Column("amount", BigInteger, nullable=False),
)

audit_log = Table(
    "audit_log", metadata,
    Column("seq", BigInteger, primary_key=True, autoincrement=False),
    Column("at", String(40), nullable=False),
    Column("actor", String(40), nullable=False),
    Column("action", String(60), nullable=False),
    Column("detail", Text, nullable=False),
    Column("prev_hash", String(64), nullable=False, unique=True),
    Column("hash", String(64), nullable=False, unique=True),
    Column("mac", String(64), nullable=True),
    Column("chain", BigInteger, primary_key=True, autoincrement=False, server_default="0"),
)
"""Every entry's `chain`: 0 is the room chain, any other a writer's (`audit.chain_genesis`);
`seq` counts within its chain (migration 0029)."""

audit_head = Table(
    "audit_head", metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("seq", BigInteger, nullable=False),
    Column("hash", String(64), nullable=False),
    Column("mac", String(64), nullable=True),
    Column("key_id", String(64), nullable=True),
)
"""One row per chain, `id` = chain + 1 (the room chain's is 1). `key_id` (the room chain's row):
the fingerprint of the key the chain is MACed with (`audit.key_id`), once recorded."""

jackpot_pools = Table(
    "jackpot_pools", metadata,
    Column("name", String(40), primary_key=True),
    Column("seed", BigInteger, nullable=False),
    Column("contribution", BigInteger, nullable=False),
    Column("meter", BigInteger, nullable=False),
    Column("posted", BigInteger, nullable=False),
    Column("posted_on", Date, nullable=True),
    Column("seeded_total", BigInteger, nullable=False),
    Column("reserve_rate", BigInteger, nullable=False, server_default="0"),
    Column("reserve_limit", BigInteger, nullable=False, server_default="0"),
    Column("reserve", BigInteger, nullable=False, server_default="0"),
    Column("opening", BigInteger, nullable=False, server_default="0"),
    Column("opening_tx", BigInteger, nullable=False, server_default="0"),
    Column("maximum", BigInteger, nullable=False, server_default="0"),
)

room_tables = Table(
    "room_tables", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(60), nullable=False, unique=True),
    Column("game", String(20), nullable=False),
    Column("rules_json", Text, nullable=False),
    Column("status", String(12), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

seats = Table(
    "seats", metadata,
    Column("table_id", Integer, ForeignKey("room_tables.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("seat", String(40), nullable=False),
    # action timers (issue 23): turns in a row that ran out; sitting out after too many
    Column("misses", Integer, nullable=False, server_default="0"),
    Column("sitting_out", Boolean, nullable=False, server_default=false()),
)

hands = Table(
    "hands", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("room_tables.id"), nullable=False, index=True),
    Column("number", Integer, nullable=False),
    Column("status", String(12), nullable=False),
    Column("opened_at", DateTime(timezone=True), nullable=False, index=True),
    Column("closed_at", DateTime(timezone=True), nullable=True),
    Column("history", Text, nullable=True),
    Column("voided_by", String(40), nullable=True),
    Column("void_reason", String(400), nullable=True),
    UniqueConstraint("table_id", "number", name="uq_hands_table_number"),
)

sealed_tables = Table(
    # issue 25: what a restart resumes the hand in play from (`room.resume`); hidden
    # information (the cards still to come, the hands not shown): no page or report reads it
    "sealed_tables", metadata,
    Column("table_id", Integer, ForeignKey("room_tables.id"), primary_key=True),
    Column("hand_id", Integer, nullable=True),
    Column("shoe", Text, nullable=True),
    Column("hand", Text, nullable=True),
)

table_leases = Table(
    # issue 25: which `cardroom serve` process holds each table (`room.leases`); `fence` grows
    # by one at every takeover and every action of the table checks it in its transaction
    "table_leases", metadata,
    Column("table_id", Integer, ForeignKey("room_tables.id"), primary_key=True),
    Column("holder", String(120), nullable=False),
    Column("fence", BigInteger, nullable=False),
    Column("heartbeat_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

room_processes = Table(
    # issue 25: every `cardroom serve` process of the room beats here (`room.leases.beat`),
    # holding tables or not, so that each knows how many share the tables (its fair share)
    "room_processes", metadata,
    Column("holder", String(120), primary_key=True),
    Column("heartbeat_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

hand_players = Table(
    "hand_players", metadata,
    Column("hand_id", Integer, ForeignKey("hands.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True, index=True),
    Column("wagered", BigInteger, nullable=True),
    Column("net", BigInteger, nullable=True),
)
"""`wagered` and `net`: the player's stake on the hand and what it won (+) or lost (-), in
cents, written when the hand closes (`hands.record_results`); null while it is in play."""

# the progressive controller and the Pan time fee's periods (migration 0005) ----------------
progressive_table_meters = Table(
    "progressive_table_meters", metadata,
    Column("pool", String(40), primary_key=True),
    Column("table_id", Integer, ForeignKey("room_tables.id"), primary_key=True),
    Column("day", Date, primary_key=True),
    Column("wagers", BigInteger, nullable=False),
    Column("coin_in", BigInteger, nullable=False),
    Column("contributed", BigInteger, nullable=False),
    Column("reserved", BigInteger, nullable=False),
)

progressive_award_meters = Table(
    "progressive_award_meters", metadata,
    Column("pool", String(40), primary_key=True),
    Column("table_id", Integer, ForeignKey("room_tables.id"), primary_key=True),
    Column("day", Date, primary_key=True),
    Column("level", String(40), primary_key=True),
    Column("hits", BigInteger, nullable=False),
    Column("won", BigInteger, nullable=False),
)

progressive_hits = Table(
    "progressive_hits", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("pool", String(40), nullable=False, index=True),
    Column("table_id", Integer, ForeignKey("room_tables.id"), nullable=False),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=False, unique=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("shares_json", Text, nullable=False),
    Column("reseed_house", BigInteger, nullable=False),
    Column("reseed_reserve", BigInteger, nullable=False),
    Column("status", String(12), nullable=False),
    Column("verified_by", String(40), nullable=True),
    Column("second_by", String(40), nullable=True),
    Column("verified_at", DateTime(timezone=True), nullable=True),
    Column("verify_note", String(400), nullable=True),
    Column("surveillance_by", String(40), nullable=True),
    Column("surveillance_note", String(400), nullable=True),
    Column("surveillance_at", DateTime(timezone=True), nullable=True),
    Column("paid_by", String(40), nullable=True),
    Column("paid_at", DateTime(timezone=True), nullable=True),
)

progressive_changes = Table(
    "progressive_changes", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("pool", String(40), nullable=False, index=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("kind", String(12), nullable=False),
    Column("first_by", String(40), nullable=False),
    Column("second_by", String(40), nullable=False),
    Column("reason", String(400), nullable=False),
    Column("before_json", Text, nullable=False),
    Column("after_json", Text, nullable=False),
)

progressive_deposits = Table(
    "progressive_deposits", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("pool", String(40), nullable=False, index=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("deposited_on", Date, nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("recorded_by", String(40), nullable=False),
    Column("deposited_by", String(80), nullable=False),
    Column("reference", String(80), nullable=False),
)
"""Deposits of a pool's accrued funds to the progressive's own bank account (WAC
230-15-455(2)(a): a separate account, deposits at least weekly): the bank's date, the amount,
who recorded it and who took it to the bank, and the deposit slip's reference."""

pan_fee_periods = Table(
    "pan_fee_periods", metadata,
    Column("table_id", Integer, ForeignKey("room_tables.id"), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), primary_key=True),
    Column("paid_until", DateTime(timezone=True), nullable=False),
)
table_slips = Table(
    "table_slips", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("series", String(12), nullable=False),
    Column("number", Integer, nullable=False),
    Column("kind", String(12), nullable=False),
    Column("table_id", Integer, ForeignKey("room_tables.id"), nullable=False, index=True),
    Column("amount", BigInteger, nullable=False),
    Column("opener_id", Integer, ForeignKey("table_slips.id"), nullable=True),
    Column("tx_id", Integer, ForeignKey("ledger_transactions.id"), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False, index=True),
    Column("cashier", String(40), nullable=True),
    Column("dealer", String(40), nullable=True),
    Column("floor", String(40), nullable=True),
    Column("note", String(400), nullable=False),
    Column("status", String(8), nullable=False),
    Column("voided_by", String(40), nullable=True),
    Column("void_reason", String(400), nullable=True),
    Column("voided_at", DateTime(timezone=True), nullable=True),
    UniqueConstraint("series", "number", name="uq_table_slips_series_number"),
    CheckConstraint("number > 0", name="ck_table_slips_number_positive"),
)
"""Every numbered form of the table games: table inventory slips (openers and closers share
one series), fill slips, credit slips and notifications of error. Voided, never deleted."""

drop_counts = Table(
    "drop_counts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("room_tables.id"), nullable=False),
    Column("gambling_day", Date, nullable=False),
    Column("cash", BigInteger, nullable=False),
    Column("debit", BigInteger, nullable=False, server_default="0"),
    Column("markers", BigInteger, nullable=False),
    Column("expected", BigInteger, nullable=False),
    Column("first_counter", String(40), nullable=False),
    Column("second_counter", String(40), nullable=False),
    Column("counted_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("table_id", "gambling_day", name="uq_drop_counts_table_day"),
)
"""The count of each table's drop box, once per gambling day, by two counters, tender by
tender: cash, debit card slips, and markers (historical: from before the room refused
credit, WAC 230-06-035)."""

cage_checks = Table(
    "cage_checks", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tx_id", Integer, ForeignKey("ledger_transactions.id"), nullable=False,
           unique=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("kind", String(12), nullable=False),
    Column("number", String(20), nullable=False),
    Column("drawer", String(80), nullable=False),
    Column("bank", String(80), nullable=False),
    Column("dated", Date, nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("accepted_by", String(40), nullable=False),
    Column("accepted_at", DateTime(timezone=True), nullable=False),
    Column("status", String(12), nullable=False),
    Column("returned_by", String(40), nullable=True),
    Column("returned_at", DateTime(timezone=True), nullable=True),
    Column("return_reason", String(400), nullable=True),
    Column("settled_by", String(40), nullable=True),
    Column("settled_at", DateTime(timezone=True), nullable=True),
)
"""Every check the cage accepted for chips (WAC 230-06-005) and what became of it: returned
unpaid, then repaid or written off (WAC 230-15-730(4)(a)). The returned-check register."""

patrons = Table(
    "patrons", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("legal_name", String(200), nullable=False),
    Column("name_key", String(200), nullable=False, index=True),
    Column("address", String(400), nullable=False),
    Column("date_of_birth", Date, nullable=False, index=True),
    Column("taxpayer_ct", Text, nullable=True),
    Column("taxpayer_index", String(64), nullable=True, index=True),
    Column("created_by", String(40), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=True),
)
"""A person the cage has identified (31 CFR 1010.312), whether or not they ever log in. The
taxpayer id is stored only encrypted under the identity key (`taxpayer_ct`) with its blind
index (`taxpayer_index`); `name_key` is the name folded for search. `updated_at`: when the
details (name, address, date of birth, taxpayer id) were last written, here or in the room or
head office they came from (`books.patron_register`); written with every patron since 0028,
and `created_at` for those before it."""

patron_documents = Table(
    "patron_documents", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=False, index=True),
    Column("kind", String(20), nullable=False),
    Column("number_ct", Text, nullable=False),
    Column("number_index", String(64), nullable=False, index=True),
    Column("issuer", String(120), nullable=False),
    Column("expires", Date, nullable=False),
    Column("checked_by", String(40), nullable=False),
    Column("checked_on", Date, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)
"""The identity documents staff examined for a patron: the number only encrypted
(`number_ct`) with its blind index (`number_index`), who checked it and on which day."""

patron_registers = Table(
    "patron_registers", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(8), nullable=False),
    Column("register_date", DateTime(timezone=True), nullable=False),
    Column("recorded_at", DateTime(timezone=True), nullable=False),
    Column("added", Integer, nullable=False),
    Column("updated", Integer, nullable=False),
    Column("kept", Integer, nullable=False),
)
"""The company's patron register (issue 25, `books.patron_register`): at the head office each
merge of the rooms' patrons (`kind` "merge", `register_date` its time); at a room each pull of
the head office's register (`kind` "pull", `register_date` the register's own date, which the
room's 48-hour check holds), with how many patrons it added, updated and kept."""
held_payouts = Table(
    "held_payouts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("table_id", Integer, ForeignKey("room_tables.id"), nullable=False, index=True),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=False, index=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("wager", String(20), nullable=False),
    Column("stake", BigInteger, nullable=False),
    Column("won", BigInteger, nullable=False),
    Column("commission", BigInteger, nullable=False),
    Column("bank", String(60), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("status", String(12), nullable=False),
    Column("decided_by", String(40), nullable=True),
    Column("decided_at", DateTime(timezone=True), nullable=True),
    Column("note", String(400), nullable=True),
    UniqueConstraint("hand_id", "account_id", "wager", name="uq_held_payouts_wager"),
)
"""Each wager whose win was over the surveillance figure (WAC 230-15-320(4)), held in the
table's `held:T` ledger account until a person with the surveillance duty verifies it (paid
to the winner's wallet) or refuses it (the wager void: stake back, win back to its bank)."""
cage_cash_counts = Table(
    "cage_cash_counts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("gambling_day", Date, nullable=False, unique=True),
    Column("amount", BigInteger, nullable=False),
    Column("counted_by", String(40), nullable=False),
    Column("counted_at", DateTime(timezone=True), nullable=False),
)
"""The cage's count of its cash at the opening of each gambling day, once a day, by whom and
when, set against the minimum cash on hand of the profile in force (WAC 230-15-050)."""

w2g_forms = Table(
    "w2g_forms", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("hit_id", Integer, ForeignKey("progressive_hits.id"), nullable=False, index=True),
    Column("pool", String(40), nullable=False),
    Column("hand_id", Integer, ForeignKey("hands.id"), nullable=False),
    Column("table_id", Integer, ForeignKey("room_tables.id"), nullable=False),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=False, index=True),
    Column("legal_name", String(200), nullable=False),
    Column("address", String(400), nullable=False),
    Column("won_at", DateTime(timezone=True), nullable=False),
    Column("paid_at", DateTime(timezone=True), nullable=False),
    Column("paid_by", String(40), nullable=False),
    Column("gross", BigInteger, nullable=False),
    Column("withheld", BigInteger, nullable=False),
    Column("wager", BigInteger, nullable=False),
    Column("wager_type", String(120), nullable=False),
    UniqueConstraint("hit_id", "account_id", name="uq_w2g_forms_share"),
)
"""One Form W-2G per jackpot share that needs one (issue 21; compliance.md, "Taxes on
jackpots"), written when the share is paid: the winner's name and address as recorded that
day (the taxpayer id and document numbers stay encrypted in the patron's record), the gross
winnings and the federal income tax withheld (posted to `house:w2g-withholding`)."""

# second signatures given on the signer's own session (migration 0017, issue 23) ----------
approvals = Table(
    "approvals", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(30), nullable=False),
    Column("asked_by", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("summary", String(400), nullable=False),
    Column("payload", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("status", String(12), nullable=False),
    Column("closed_by", String(40), nullable=True),
    Column("closed_at", DateTime(timezone=True), nullable=True),
    Column("outcome", String(400), nullable=True),
)
"""A form that needs another person's signature (a fill, a credit, an opener, a closer, a
drop count, a jackpot adjustment, settings change or verification), waiting for them to accept
it on their own session (`room.approvals`): pending, then done, declined or withdrawn (a pending
one past `expires_at` is expired)."""
approval_signers = Table(
    "approval_signers", metadata,
    Column("approval_id", Integer, ForeignKey("approvals.id"), primary_key=True),
    Column("part", String(20), primary_key=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("signed_at", DateTime(timezone=True), nullable=True),
)
"""Who is asked to sign each part of an approval (the dealer, the floor, the second counter),
and when they accepted."""

currency_transactions = Table(
    "currency_transactions", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tx_id", Integer, ForeignKey("ledger_transactions.id"), nullable=False,
           unique=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=True, index=True),
    Column("direction", String(3), nullable=False),
    Column("kind", String(20), nullable=False),
    Column("amount", BigInteger, nullable=False),
    Column("place", String(20), nullable=False),
    Column("table_id", Integer, nullable=True),
    Column("employee", String(40), nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("gaming_day", Date, nullable=False, index=True),
    CheckConstraint("direction IN ('in', 'out')", name="ck_currency_direction"),
    CheckConstraint("amount > 0", name="ck_currency_amount_positive"),
)
"""Every cash movement of a player (31 CFR 1021.311, 1021.410(b)(11)): one row per ledger
transaction of a currency kind (`cardroom.room.compliance.currency.KINDS`), written in the same
database
transaction as its ledger post, with the patron the player's account was linked to then. Never
updated or deleted (`audit verify` holds the rows to the ledger)."""

currency_reports = Table(
    "currency_reports", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=False),
    Column("gaming_day", Date, nullable=False),
    Column("cash_in_over", Boolean, nullable=False),
    Column("cash_out_over", Boolean, nullable=False),
    Column("opened_at", DateTime(timezone=True), nullable=False),
    Column("opened_by", String(40), nullable=False),
    Column("due", Date, nullable=False),
    Column("status", String(10), nullable=False),
    Column("reference", String(60), nullable=True),
    Column("filed_by", String(40), nullable=True),
    Column("filed_at", DateTime(timezone=True), nullable=True),
    UniqueConstraint("patron_id", "gaming_day", name="uq_currency_reports_patron_day"),
)
"""The currency transaction reports due (31 CFR 1021.311, 1010.306(a)(1)): one per patron and
gaming day on which their cash in or their cash out went over the threshold, due on the day
the profile says (15 days later); `status` pending until the compliance officer records it
filed with its reference."""

exclusion_lists = Table(
    "exclusion_lists", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("list_date", DateTime(timezone=True), nullable=False),
    Column("digest", String(64), nullable=False, unique=True),
    Column("entries", Integer, nullable=False),
    Column("added", Integer, nullable=False),
    Column("removed", Integer, nullable=False),
    Column("imported_by", String(40), nullable=False),
    Column("imported_at", DateTime(timezone=True), nullable=False),
)
"""Each import of the state's self-exclusion list (RCW 9.46.071; WAC 230-23-030): the list's
own date, the digest of its content (the same list imported twice is one row), how many
entries it held, added and removed."""

exclusion_entries = Table(
    "exclusion_entries", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("source", String(10), nullable=False),
    Column("entry_key", String(64), nullable=False, index=True),
    Column("date_of_birth", Date, nullable=False, index=True),
    Column("legal_name", String(200), nullable=False),
    Column("name_key", String(200), nullable=False),
    Column("period", String(20), nullable=False),
    Column("active", Boolean, nullable=False, index=True),
    Column("added_list", Integer, ForeignKey("exclusion_lists.id"), nullable=True),
    Column("removed_list", Integer, ForeignKey("exclusion_lists.id"), nullable=True),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=True),
    Column("enrolled_by", String(40), nullable=True),
    Column("enrolled_at", DateTime(timezone=True), nullable=True),
    Column("form_due", DateTime(timezone=True), nullable=True),
    Column("forwarded_by", String(40), nullable=True),
    Column("forwarded_at", DateTime(timezone=True), nullable=True),
    CheckConstraint("source IN ('state', 'room')", name="ck_exclusion_entries_source"),
)
"""The people excluded: `source` "state" (an entry of an imported list, active until a later
list drops it: `removed_list`) or "room" (an in-room enrolment, whose form is due at the
commission by `form_due`, WAC 230-23-030). Rows are never deleted. `name_key` is the name
folded with its words sorted; identifiers are in `exclusion_identifiers`."""

exclusion_identifiers = Table(
    "exclusion_identifiers", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("entry_id", Integer, ForeignKey("exclusion_entries.id"), nullable=False, index=True),
    Column("number_index", String(64), nullable=False, index=True),
)
"""An excluded person's document numbers, as the identity key's blind index only (the same
index as `patron_documents.number_index`): never stored in clear (WAC 230-23-025)."""

exclusion_clearances = Table(
    "exclusion_clearances", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("entry_id", Integer, ForeignKey("exclusion_entries.id"), nullable=False, index=True),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=False, index=True),
    Column("reason", String(400), nullable=False),
    Column("cleared_by", String(40), nullable=False),
    Column("cleared_at", DateTime(timezone=True), nullable=False),
    UniqueConstraint("entry_id", "patron_id", name="uq_exclusion_clearance"),
)
"""A match that staff found to be another person (a false positive), with who decided and
why."""

exclusion_breaches = Table(
    "exclusion_breaches", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=False, index=True),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=True),
    Column("entry_id", Integer, ForeignKey("exclusion_entries.id"), nullable=True),
    Column("table_id", Integer, nullable=True),
    Column("place", String(120), nullable=False),
    Column("confiscated", BigInteger, nullable=False),
    Column("tx_id", Integer, nullable=True),
    Column("found_at", DateTime(timezone=True), nullable=False),
    Column("notice_due", DateTime(timezone=True), nullable=False),
    Column("notified_by", String(40), nullable=True),
    Column("notified_at", DateTime(timezone=True), nullable=True),
)
"""An excluded person found playing (WAC 230-23-030): where, when, what was confiscated (in
cents, ledger transaction `tx_id`), and the notice to the commission due by `notice_due`."""

marketing_closed = Table(
    "marketing_closed", metadata,
    Column("patron_id", Integer, ForeignKey("patrons.id"), primary_key=True),
    Column("reason", String(40), nullable=False),
    Column("since", DateTime(timezone=True), nullable=False),
)
"""Patrons to whom no player club, marketing or comp may go (WAC 230-23-020): any future
marketing reads this (`exclusions.marketing_allowed`)."""
# suspicious activity: alerts and cases (migration 0015) -------------------------------------
compliance_alerts = Table(
    "compliance_alerts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(160), nullable=False, unique=True),
    Column("kind", String(20), nullable=False),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=True, index=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("gaming_day", Date, nullable=False, index=True),
    Column("detected_at", DateTime(timezone=True), nullable=False),
    Column("detected_by", String(40), nullable=False),
    Column("summary", String(600), nullable=False),
    Column("evidence", Text, nullable=False),
)
"""The suspicious-activity alerts (31 CFR 1021.320): one per pattern, subject and gaming day
(`key`), raised by the room after a currency transaction, by the day's scan, or by hand, with
its evidence (JSON: the currency transactions and the hands). Never updated or deleted; for
the compliance officer only."""

compliance_cases = Table(
    "compliance_cases", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("patron_id", Integer, ForeignKey("patrons.id"), nullable=True, index=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("subject", String(200), nullable=False),
    Column("opened_at", DateTime(timezone=True), nullable=False),
    Column("opened_by", String(40), nullable=False),
    Column("detected_on", Date, nullable=False),
    Column("due", Date, nullable=False),
    Column("status", String(12), nullable=False),
    Column("decided_at", DateTime(timezone=True), nullable=True),
    Column("decided_by", String(40), nullable=True),
    Column("reference", String(60), nullable=True),
    Column("reasons", Text, nullable=True),
)
"""The compliance officer's suspicious-activity cases (31 CFR 1021.320): due 30 days from
detection, decided once (a SAR filed with its BSA reference, or not filed with the reasons);
only the decision ever changes a row."""

compliance_case_entries = Table(
    "compliance_case_entries", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("case_id", Integer, ForeignKey("compliance_cases.id"), nullable=False, index=True),
    Column("kind", String(12), nullable=False),
    Column("ref", Integer, nullable=True),
    Column("text", Text, nullable=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("by", String(40), nullable=False),
)
"""A case's narrative (kind "narrative", its text) and evidence (kind "alert", "transaction"
or "hand", `ref` its id), appended, never edited or deleted."""
