"""The one fixtures root: rule tables and whole-hand transcripts, one folder per game."""

from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
