"""`cardroom report w2g --year YYYY`: every Form W-2G of a year, for the regulator's filing
(issue 21; docs/compliance.md, "Form W-2G"). The winner's taxpayer id and identity document
are read in clear with the identity key file: whoever runs this command on the room's machine
holds that file (the web page offers no such export but to the compliance role). The export
is audited (`w2g.export`, with the year and the forms' numbers, never a taxpayer id)."""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from cardroom.cli import options as opt
from cardroom.cli.apps import report_app
from cardroom.cli.catalog import summary
from cardroom.cli.options import console
from cardroom.errors import CardroomError
from cardroom.money import format_money

IdentityKeyFile = Annotated[Path | None, typer.Option(
    "--identity-key-file", help="the identity key (default: $CARDROOM_IDENTITY_KEY_FILE, else "
    "identity.key beside the default database)")]


@report_app.command("w2g", short_help=summary("report w2g"))
def report_w2g(
    year: Annotated[int, typer.Option("--year", help="The calendar year the wins were won.")],
    database: opt.Database = None,
    audit_key_file: opt.KeyFile = None,
    identity_key_file: IdentityKeyFile = None,
    as_json: opt.AsJson = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV rows instead.")] = False,
) -> None:
    """Every Form W-2G of `--year`: payer, winner's name, address and taxpayer id, date won,
    type of wager, gross winnings, federal income tax withheld, cashier and window (table),
    identity documents; the taxpayer ids in clear (this is the regulator's export)."""
    from cardroom.cli.operator import OPERATOR, operator_storage
    from cardroom.room.compliance import w2g
    from cardroom.room.storage import audit
    from cardroom.room.storage.identity_key import load_identity_key

    if as_json and as_csv:
        raise CardroomError("choose --json or --csv, not both")
    if not 1900 <= year <= 9999:
        raise CardroomError(f"{year} is not a year: write it as YYYY, such as 2026")
    key = load_identity_key(identity_key_file)
    storage = operator_storage(database, audit_key_file, create=False)
    with storage.unit() as conn:
        found = w2g.forms(conn, year, key)
        audit.append(conn, OPERATOR, "w2g.export",
                     {"year": year, "forms": [f.form for f in found]})
    data = w2g.forms_json(found, year)
    if as_json:
        print(json.dumps(data, indent=1))
    elif as_csv:
        out = csv.DictWriter(sys.stdout, w2g.FIELDS, lineterminator="\n")
        out.writeheader()
        out.writerows(data["forms"])
    else:
        table = Table("form", "date won", "winner", "window", "gross winnings",
                      "tax withheld", "cashier", title=f"Form W-2G, {year}")
        for f in found:
            table.add_row(str(f.form), f.box2_date_won, f.winner_name, f.box10_window,
                          format_money(f.box1_reportable_winnings),
                          format_money(f.box4_federal_tax_withheld), f.box8_cashier)
        console.print(table)
        t = data["totals"]
        console.print(f"{t['forms']} form(s): gross winnings "
                      f"{format_money(t['box1_reportable_winnings'])}, federal income tax "
                      f"withheld {format_money(t['box4_federal_tax_withheld'])}",
                      highlight=False, markup=False)
