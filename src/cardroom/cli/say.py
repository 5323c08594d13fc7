"""Text a person reads on the terminal, printed through Rich: a message (an error, a problem,
a floor's reason) is escaped, because Rich reads brackets as markup and drops them ("add a
[[modifications]] entry" printed as "add a [] entry")."""

from __future__ import annotations

from rich.markup import escape


def flagged(label: str, text: object = "") -> str:
    """`label` in red and `text` as written (its brackets kept): the markup for one line."""
    shown = escape(str(text))
    if not label:
        return f"[red]{shown}[/red]"
    return f"[red]{escape(label)}[/red] {shown}" if shown else f"[red]{escape(label)}[/red]"


__all__ = ["escape", "flagged"]
