"""`cardroom jackpot deposit`: the cage records a deposit of a progressive pool's accrued
funds to the progressive's own bank account (WAC 230-15-455(2)(a): at least weekly).
`cardroom report jackpot` shows what is due and exits 1 when a deposit is overdue."""

from __future__ import annotations

from datetime import date
from typing import Annotated

import typer

from cardroom.cli import options as opt
from cardroom.cli.apps import app
from cardroom.cli.catalog import summary
from cardroom.cli.options import console
from cardroom.errors import CardroomError
from cardroom.money import format_money, parse_money

jackpot_app = typer.Typer(help=summary("jackpot"),
                          no_args_is_help=True)
app.add_typer(jackpot_app, name="jackpot")


@jackpot_app.command("deposit")
def jackpot_deposit(
    amount: Annotated[str, typer.Option("--amount", help="The amount deposited, in dollars.")],
    by: Annotated[str, typer.Option("--by", help="Who took the deposit to the bank.")],
    reference: Annotated[str, typer.Option(
        "--reference", help="The deposit slip's reference.")],
    day: Annotated[str | None, typer.Option(
        "--date", help="The bank's date of the deposit, YYYY-MM-DD (default: today).")] = None,
    pool: Annotated[str | None, typer.Option(
        "--pool", help="The pool (default: the room's default pool).")] = None,
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    as_json: opt.AsJson = False,
    accept_failed_audit: opt.AcceptFailedAudit = False,
) -> None:
    """Record a deposit of the pool's accrued contributions (at most what is due), audited;
    prints what is still due and by when."""
    import json
    from datetime import datetime

    from cardroom.cli.operator import operator_storage, terminal_operator
    from cardroom.room.money.jackpot import DEFAULT_POOL
    from cardroom.room.money.progressive_funds import funds, record_deposit
    from cardroom.room.storage.settings import GamblingClock

    cents = parse_money(amount)
    if day is None:
        on = datetime.now(GamblingClock.from_env().zone).date()
    else:
        try:
            on = date.fromisoformat(day)
        except ValueError:
            raise CardroomError(f"{day[:20]!r} is not a date: write it as YYYY-MM-DD") from None
    name = pool or DEFAULT_POOL
    storage = operator_storage(database, audit_key_file,
                               accept_failed_audit=accept_failed_audit)
    operator = terminal_operator()
    with storage.unit() as conn:
        made = record_deposit(conn, operator, name, cents, on, by, reference)
        now = funds(conn, name)
    if as_json:
        print(json.dumps({"deposit": made.id, "pool": name, "amount": made.amount,
                          "deposited_on": made.deposited_on.isoformat(),
                          "funds": now.to_json()}))
        return
    console.print(f"deposit {made.id} recorded: {format_money(made.amount)} to the {name} "
                  f"progressive account on {made.deposited_on} by {made.deposited_by} "
                  f"(reference {made.reference})", highlight=False, markup=False)
    console.print(now.sentence(), highlight=False, markup=False)
