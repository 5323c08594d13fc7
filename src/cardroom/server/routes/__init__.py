"""The app's routes, one router per area; `create_app` includes `ROUTERS` (docs/server.md)."""

from __future__ import annotations

from fastapi import APIRouter

from cardroom.server.routes import (
    audit,
    cage,
    cases,
    cashier,
    floor,
    history,
    jackpot,
    pages,
    reports,
    staff,
    tables,
    title31,
)

ROUTERS: tuple[APIRouter, ...] = (pages.router, cashier.router, tables.router, history.router,
                                  floor.router, jackpot.router, audit.router, cage.router,
                                  reports.router, staff.router, title31.router,
                                  cases.router)
