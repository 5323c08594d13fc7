"""Rule tables shipped as data."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any


def load_table(name: str) -> dict[str, Any]:
    """Read one of the package's TOML rule tables."""
    return tomllib.loads(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))
