"""Whole numbers a person types (a seat, a slip's or a row's number, a card's code, cents of a
rate), read in ASCII digits only: `str.isdigit` passes "²" and the digits of every script,
which `int` then either fails on ("²": an error where a refusal was due) or reads (Arabic-Indic
"٣" is 3)."""

from __future__ import annotations


def whole_number(text: str) -> int | None:
    """The number `text` writes in ASCII digits (spaces around it allowed), or None for
    anything else: a sign, a point, a comma, another script's digits."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None
