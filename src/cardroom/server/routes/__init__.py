"""The app's routes, one router per area; `create_app` includes `ROUTERS` (docs/server.md)."""

from __future__ import annotations

from fastapi import APIRouter

from cardroom.server.routes import (
    approvals,
    audit,
    cage,
    cases,
    cashier,
    changes,
    exclusions,
    floor,
    history,
    jackpot,
    pages,
    reports,
    staff,
    surveillance,
    tables,
    title31,
)

ROUTERS: tuple[APIRouter, ...] = (pages.router, cashier.router, tables.router, history.router,
                                  floor.router, jackpot.router, audit.router, cage.router,
                                  reports.router, staff.router, surveillance.router,
                                  approvals.router, title31.router, exclusions.router,
                                  cases.router, changes.router)
