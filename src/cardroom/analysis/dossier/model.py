"""What a dossier holds: sections of captioned tables, charts (SVG text) and notes, plus the
same numbers as a JSON-ready dict."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardroom.analysis.dossier.provenance import Provenance


@dataclass(frozen=True)
class TableData:
    caption: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Section:
    title: str
    notes: tuple[str, ...] = ()
    tables: tuple[TableData, ...] = ()
    charts: tuple[str, ...] = ()
    """SVG elements."""


@dataclass(frozen=True)
class Dossier:
    game: str
    title: str
    rules: tuple[tuple[str, str], ...]
    """The house rules analysed, as (setting, value) for the cover."""
    sections: tuple[Section, ...]
    provenance: Provenance
    data: dict[str, Any] = field(default_factory=dict)
    """Every figure as numbers (exact fractions as "n/d" strings beside floats)."""

    def to_json(self) -> dict[str, Any]:
        """The figures and, under "provenance", where they come from."""
        return {**self.data, "provenance": self.provenance.to_json()}
