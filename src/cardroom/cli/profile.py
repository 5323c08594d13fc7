"""`cardroom profile show`: the regulatory profile in force (`CARDROOM_PROFILE`), every cap with
its section and dated figures; and the limits of a table as `tables create` prints them."""

from __future__ import annotations

import json
import re
from typing import Any

import typer
from rich.console import Console

from cardroom.cli import options as opt
from cardroom.cli.apps import app
from cardroom.cli.catalog import summary
from cardroom.houserules import HouseRules
from cardroom.money import format_money
from cardroom.profile import PROFILE_ENV, Amount, Applied, profile_in_force

profile_app = typer.Typer(help=summary("profile"),
                          no_args_is_help=True)
app.add_typer(profile_app, name="profile")
_out = Console()

_WAGER_LIMIT = re.compile(r"(^|_)(min|max)(_|$).*cents$")


@profile_app.command("show")
def profile_show(as_json: opt.AsJson = False) -> None:
    """Print the profile in force: each cap, its section and its figure from each date."""
    profile = profile_in_force()
    if as_json:
        print(json.dumps(profile.model_dump(mode="json")))
        return
    _out.print(f"{profile.title} (profile {profile.name}, set by {PROFILE_ENV})",
               highlight=False)
    _out.print(f"governed by {profile.governed_by}", highlight=False)
    for cap in profile.caps().values():
        _out.print(f"{cap.what}: {cap.section}", highlight=False, soft_wrap=True)
        for period, after in zip(cap.periods, (*cap.periods[1:], None), strict=True):
            since = (f"from {period.since}" if period.since
                     else f"before {after.since}" if after else "in force")
            note = f" ({period.note})" if period.note else ""
            _out.print(f"  {since}: {period.words()}{note}", highlight=False, soft_wrap=True)


def table_limits(rules: HouseRules) -> tuple[dict[str, int], list[Applied]]:
    """A table's limits: every wager minimum and maximum, and every setting a money cap
    governs (a Pan chip), in cents; and every regulated setting with the cap in force."""
    applied = profile_in_force().applying(rules.regulated())
    values = rules.model_dump()
    names = [k for k in values if _WAGER_LIMIT.search(k)]
    names += [a.setting.setting for a in applied
              if isinstance(a.figure, Amount) and a.setting.setting not in names]
    return {k: int(values[k]) for k in names}, applied


def limits_json(rules: HouseRules) -> dict[str, Any]:
    limits, applied = table_limits(rules)
    return {"limits": limits,
            "caps": [{"setting": a.setting.setting, "value": a.setting.value,
                      "section": a.cap.section, "limit": a.limit} for a in applied]}


def print_limits(rules: HouseRules) -> None:
    """Each limit, and each regulated setting, with the cap that governs it."""
    limits, applied = table_limits(rules)
    capped = {a.setting.setting: a for a in applied}
    lines = [(name, format_money(cents), capped.get(name)) for name, cents in limits.items()]
    lines += [(a.setting.setting, a.shown, a) for a in applied if a.setting.setting not in limits]
    for name, value, a in lines:
        law = "" if a is None else f" ({a.rule}; {a.cap.section})"
        _out.print(f"  {name} = {value}{law}", highlight=False, soft_wrap=True)
