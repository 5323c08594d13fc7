"""Form W-2G for a jackpot share (issue 21, "Payouts that need more than the dealer";
../shared/reference/compliance.md, "Taxes on jackpots"; the profile's `w2g` figure).

A win of the profile's `report_cents` or more at `odds_to_one` to 1 or more is reported on Form
W-2G; `withhold_percent` of it is withheld when it is `withhold_cents` or more (the state
profile: $600 at 300 to 1, 24% from $5,000). A Super-9 top-award share is paid on the $1
progressive wager, so any share of $600 or more needs a form; the fixed awards (10, 125, 250
for 1) never reach 300 to 1 and need none (docs/compliance.md, "Form W-2G").

A share that needs a form is not paid until the winner's patron (the patron linked to the
winning account: `patrons.patron_of`) has the identity on file that the form asks for: legal
name, address, taxpayer id and an identity document staff examined (`patrons.identity_on_file`).
At payment the withholding goes to its own ledger account (`WITHHOLDING`) and the winner's
wallet gets the rest; a form row is written (`w2g_forms`) with the name and address as they
stood that day. The taxpayer id and the document number stay encrypted in the patron's record:
only `forms(..., key)` reads them, for the regulator's export (`cardroom report w2g`).
"""

from __future__ import annotations

import os
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.engine import Connection

from cardroom.errors import CardroomError
from cardroom.money import Cents, Rounding, round_div
from cardroom.profile import TaxForm, profile_in_force
from cardroom.room.money import ledger
from cardroom.room.money.progressive_terms import progressive
from cardroom.room.people import patrons
from cardroom.room.storage import audit
from cardroom.room.storage.identity_key import IdentityKey
from cardroom.room.storage.schema import (
    accounts,
    ledger_accounts,
    ledger_entries,
    ledger_transactions,
    room_tables,
    w2g_forms,
)
from cardroom.room.storage.settings import GamblingClock

WITHHOLDING = "house:w2g-withholding"
"""The federal income tax withheld from W-2G winnings, owed to the IRS until the cage remits
it: the house's liability, never the winner's or the house's money."""
TOP_AWARD_WAGER: Cents = 100
"""Super-9, progressive jackpot: "The progressive jackpot is a 1$ Progressive Wager"."""
PAYER_ENV = ("CARDROOM_PAYER_NAME", "CARDROOM_PAYER_ADDRESS", "CARDROOM_PAYER_TIN",
             "CARDROOM_PAYER_PHONE")
"""Where the payer's (the licensee's) name, address, federal id and telephone for the form's
payer boxes are set."""
IDENTITY_WORDS = "legal name, address, taxpayer id and an identity document the cage examined"


class IdentityForForm(CardroomError):
    """A W-2G share refused payment until the winner's identity is recorded."""


def rule(day: date) -> TaxForm:
    """The profile's W-2G figure in force on `day`."""
    return profile_in_force().w2g.on(day)


def day_of(at: datetime) -> date:
    return GamblingClock.from_env().day_of(at)


def needs_form(won: Cents, wager: Cents, day: date) -> bool:
    """A win of the profile's figure or more at its odds or more (compliance.md, "Taxes on
    jackpots": $600 or more at 300 to 1 or more under the state profile). `won` is what the
    award pays; the odds are `won` to `wager`."""
    figure = rule(day)
    return won >= figure.report_cents and won >= figure.odds_to_one * wager


def withholding(won: Cents, day: date) -> Cents:
    """The federal income tax withheld from a reportable win: the profile's percentage of it
    (rounded to the nearest cent, a half cent up) when it is the profile's figure or more
    ($5,000 and 24% under the state profile), else nothing."""
    figure = rule(day)
    if won < figure.withhold_cents:
        return 0
    return round_div(won * figure.withhold_percent, 100, Rounding.HALF_UP)


@dataclass(frozen=True)
class Missing:
    """A winner whose share needs a form and whose identity is not yet on file."""

    account_id: int
    player: str
    share: Cents
    patron_id: int | None
    what: str
    """What the cage must record, in words."""


def missing_identity(conn: Connection, shares: dict[int, Cents], at: datetime
                     ) -> list[Missing]:
    """The winners of `shares` (a top award's, won at `at`) whose share needs a W-2G and whose
    patron has not the identity on file that the form needs."""
    day = day_of(at)
    out = []
    for account_id, share in sorted(shares.items()):
        if not needs_form(share, TOP_AWARD_WAGER, day):
            continue
        player = str(conn.execute(select(accounts.c.username).where(
            accounts.c.id == account_id)).scalar_one())
        patron = patrons.patron_of(conn, account_id)
        today = datetime.now(UTC).date()
        if patron is None:
            out.append(Missing(account_id, player, share, None,
                               f"the patron record of {player} ({IDENTITY_WORDS}), linked to "
                               "their account"))
        elif not patrons.identity_on_file(conn, patron.id, today):
            lacking = [w for w, ok in (
                ("the taxpayer id", patron.has_taxpayer_id),
                ("an identity document that has not expired", any(
                    d.expires >= today for d in patron.documents))) if not ok]
            out.append(Missing(account_id, player, share, patron.id,
                               f"{' and '.join(lacking)} of {patron.legal_name}"))
    return out


def require_identity(conn: Connection, shares: dict[int, Cents], at: datetime) -> None:
    """IdentityForForm, naming what the cage must record, when a share needs a W-2G and its
    winner's identity is not on file (compliance.md, "Taxes on jackpots")."""
    missing = missing_identity(conn, shares, at)
    if missing:
        raise IdentityForForm(
            "this award needs a W-2G: before it is paid the cage must record "
            + "; ".join(m.what for m in missing) + ".")


@dataclass(frozen=True)
class Payment:
    """One winner's share as paid: to the wallet `net`, to `WITHHOLDING` `withheld`."""

    account_id: int
    share: Cents
    withheld: Cents

    @property
    def net(self) -> Cents:
        return self.share - self.withheld


def payments(shares: dict[int, Cents], at: datetime) -> list[Payment]:
    """Each winner's share, with the tax withheld where the share needs a W-2G."""
    day = day_of(at)
    return [Payment(a, v, withholding(v, day) if needs_form(v, TOP_AWARD_WAGER, day) else 0)
            for a, v in sorted(shares.items())]


def record_forms(conn: Connection, who: str, *, pool: str, hit_id: int, hand_id: int,
                 table_id: int, won_at: datetime, paid: list[Payment]) -> list[int]:
    """Write a form row for each share that needs one (the identity is on file: the caller
    checked `require_identity`); audited as `w2g.form`, without the taxpayer id."""
    day = day_of(won_at)
    ids = []
    for p in paid:
        if not needs_form(p.share, TOP_AWARD_WAGER, day):
            continue
        patron = patrons.patron_of(conn, p.account_id)
        assert patron is not None  # require_identity refused the payment otherwise
        form_id = int(conn.execute(insert(w2g_forms).values(
            hit_id=hit_id, pool=pool, hand_id=hand_id, table_id=table_id,
            account_id=p.account_id, patron_id=patron.id, legal_name=patron.legal_name,
            address=patron.address, won_at=won_at, paid_at=datetime.now(UTC), paid_by=who,
            gross=p.share, withheld=p.withheld, wager=TOP_AWARD_WAGER,
            wager_type=progressive().wager_type).returning(w2g_forms.c.id)).scalar_one())
        audit.append(conn, who, "w2g.form", {
            "form": form_id, "hit": hit_id, "patron": patron.id, "gross": p.share,
            "withheld": p.withheld})
        ids.append(form_id)
    return ids


# the forms -------------------------------------------------------------------------------
FIELDS = ("form", "payer_name", "payer_address", "payer_tin", "payer_phone",
          "winner_name", "winner_address", "winner_tin", "box1_reportable_winnings",
          "box2_date_won", "box3_type_of_wager", "box4_federal_tax_withheld",
          "box5_transaction", "box7_identical_wagers", "box8_cashier", "box10_window",
          "box11_first_id", "box12_second_id", "paid_on", "player")
"""The export's columns (docs/compliance.md, "Form W-2G"): the form's boxes that a table-game
jackpot fills. Money in cents; boxes 6 (race) and 13-18 (state and local: Washington has no
income tax) stay empty and are left out."""


@dataclass(frozen=True)
class Form:
    form: int
    payer_name: str
    payer_address: str
    payer_tin: str
    payer_phone: str
    winner_name: str
    winner_address: str
    winner_tin: str
    box1_reportable_winnings: Cents
    box2_date_won: str
    box3_type_of_wager: str
    box4_federal_tax_withheld: Cents
    box5_transaction: str
    box7_identical_wagers: Cents
    box8_cashier: str
    box10_window: str
    box11_first_id: str
    box12_second_id: str
    paid_on: str
    player: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _payer() -> dict[str, str]:
    name, address, tin, phone = (os.environ.get(k, "").strip() for k in PAYER_ENV)
    return {"payer_name": name, "payer_address": address, "payer_tin": tin,
            "payer_phone": phone}


def forms(conn: Connection, year: int, key: IdentityKey) -> list[Form]:
    """Every W-2G of the calendar `year` (by the date won), oldest first, with the winner's
    taxpayer id and identity document read in clear with the identity key: for the
    regulator's export only (`cardroom report w2g`; the web download needs the compliance
    role). Audited as `w2g.export` with the year and the forms' numbers."""
    names = {int(r.id): str(r.name) for r in conn.execute(select(room_tables.c.id,
                                                                 room_tables.c.name))}
    players = {int(r.id): str(r.username) for r in conn.execute(select(accounts.c.id,
                                                                       accounts.c.username))}
    payer = _payer()
    out = []
    for r in conn.execute(select(w2g_forms).order_by(w2g_forms.c.won_at, w2g_forms.c.id)):
        won_at = r.won_at if r.won_at.tzinfo else r.won_at.replace(tzinfo=UTC)
        paid_at = r.paid_at if r.paid_at.tzinfo else r.paid_at.replace(tzinfo=UTC)
        won = day_of(won_at)
        if won.year != year:
            continue
        secrets = _secrets(conn, int(r.patron_id), key, paid_at.date())
        out.append(Form(
            form=int(r.id), **payer, winner_name=r.legal_name, winner_address=r.address,
            winner_tin=secrets[0], box1_reportable_winnings=int(r.gross),
            box2_date_won=won.isoformat(), box3_type_of_wager=r.wager_type,
            box4_federal_tax_withheld=int(r.withheld),
            box5_transaction=f"pool {r.pool}, jackpot hit {r.hit_id}, hand {r.hand_id}",
            box7_identical_wagers=0, box8_cashier=r.paid_by,
            box10_window=names.get(int(r.table_id), str(r.table_id)),
            box11_first_id=secrets[1], box12_second_id=secrets[2],
            paid_on=day_of(paid_at).isoformat(), player=players.get(int(r.account_id), "")))
    return out


def _secrets(conn: Connection, patron_id: int, key: IdentityKey, paid: date
             ) -> tuple[str, str, str]:
    """The taxpayer id and the first and second identity documents in clear, as the form
    writes them ("driver's licence WA D1234567, expires 2030-01-01"): the documents valid
    when the share was paid, newest first."""
    clear = patrons.reveal_for_form(conn, patron_id, key)
    docs = [f"{patrons.DOCUMENT_KINDS.get(d.kind, d.kind)} {d.issuer} {d.number}, expires "
            f"{d.expires.isoformat()}" for d in reversed(clear.documents) if d.expires >= paid]
    docs += ["", ""]
    return clear.taxpayer_id or "", docs[0], docs[1]


def forms_json(found: list[Form], year: int) -> dict[str, Any]:
    return {"year": year, "fields": list(FIELDS), "forms": [f.to_json() for f in found],
            "totals": {"forms": len(found),
                       "box1_reportable_winnings": sum(f.box1_reportable_winnings
                                                       for f in found),
                       "box4_federal_tax_withheld": sum(f.box4_federal_tax_withheld
                                                        for f in found)}}


# the jackpot report's part -------------------------------------------------------------------
def withheld_by_form(conn: Connection, pool: str) -> dict[int, Cents]:
    """The tax withheld from each paid top award of `pool` (hit id → cents), by its forms."""
    out: dict[int, Cents] = {}
    for r in conn.execute(select(w2g_forms.c.hit_id, w2g_forms.c.withheld).where(
            w2g_forms.c.pool == pool)):
        out[int(r.hit_id)] = out.get(int(r.hit_id), 0) + int(r.withheld)
    return out


def withheld_in_ledger(conn: Connection, pool: str) -> Cents:
    """What the payments of `pool`'s top awards posted to `WITHHOLDING`."""
    total = conn.execute(
        ledger.entry_rows(func.coalesce(func.sum(ledger_entries.c.amount), 0))
        .where(ledger_accounts.c.name == WITHHOLDING, ledger_transactions.c.kind == "jackpot-pay",
               ledger_transactions.c.key.startswith(f"jackpot-pay:{pool}:", autoescape=True))
    ).scalar_one()
    return int(total)
