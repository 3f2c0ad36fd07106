"""Every router of the service. Add yours with one ``include_router`` line below."""

from __future__ import annotations

from fastapi import APIRouter

from app.api.routes import (
    boards,
    cards,
    decks,
    health,
    heralds_horn,
    mana_costs,
    mental_magic,
    payments,
    problems,
    scenarios,
    spells,
)

api_router = APIRouter()
api_router.include_router(health.router)
api_router.include_router(problems.router)
api_router.include_router(mana_costs.router)
api_router.include_router(cards.router)
api_router.include_router(boards.router)
api_router.include_router(spells.router)
api_router.include_router(mental_magic.router)
api_router.include_router(heralds_horn.router)
api_router.include_router(scenarios.router)
api_router.include_router(payments.router)
api_router.include_router(decks.router)
