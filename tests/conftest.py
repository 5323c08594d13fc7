"""Shared test helpers."""

from __future__ import annotations

from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
