"""`cardroom analyze|simulate|play baccarat`."""

from __future__ import annotations
