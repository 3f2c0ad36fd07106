"""``POST /v1/payments/plan``: read the board, find the player's mana sources, run the payment solver."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.config import Settings
from app.errors import from_rules_error
from app.rules.costs import ManaCost
from app.rules.errors import RulesError
from app.rules.payment import UnpayableError, plan_payment
from app.rules.sources import payment_sources
from app.schemas.payments import PaymentPlanOut, PaymentPlanRequest, PlanStepOut, SymbolPaymentOut
from app.services.boards import build_board
from app.services.catalogue import Catalogue
from app.services.spells import compute, spell_to_cast


def _mana(types: tuple[str, ...]) -> str:
    return "".join(f"{{{t}}}" for t in types)


def plan(*, request: PaymentPlanRequest, session: Session, settings: Settings) -> PaymentPlanOut:
    """A plan paying the cost (or the spell's total cost) from ``player``'s sources, pool and life."""
    catalogue = Catalogue(session)
    player = request.player
    board = build_board(request.board, catalogue=catalogue, extra_players=(player,))
    if request.spell is not None:
        cost = compute(board, player, spell_to_cast(request.spell, catalogue=catalogue)).total_cost
        loc: tuple[str, ...] = ("body", "spell")
    else:
        assert request.cost is not None  # the schema requires one of them
        cost = ManaCost.parse(request.cost)
        loc = ("body", "cost")
    answer = {"rules_edition": settings.rules_edition, "data_version": catalogue.data_version}
    sources = payment_sources(board, player)
    pool = board.pool_of(player)
    try:
        found = plan_payment(cost, sources, pool=pool, life=board.player(player).life)
    except UnpayableError as exc:
        return PaymentPlanOut(**answer, payable=False, cost=str(cost), plan=[], short=str(exc.short))
    except RulesError as exc:
        where = ("body", "board", "mana_pool", player) if getattr(exc, "field", None) == "mana_pool" else loc
        raise from_rules_error(exc, where) from exc
    owners = [s.permanent for s in found.steps]
    return PaymentPlanOut(
        **answer,
        payable=True,
        cost=str(cost),
        plan=[
            PlanStepOut(
                permanent=s.permanent,
                ability=s.ability,
                adds=_mana(s.adds),
                activation_cost=str(s.activation_cost) if s.activation_cost is not None else None,
                life_paid=s.life_paid,
            )
            for s in found.steps
        ],
        payments=[
            SymbolPaymentOut(
                symbol=p.symbol,
                pays=p.target,
                mana=p.mana,
                source="life" if p.mana is None else "pool" if p.step is None else owners[p.step],
            )
            for p in found.payments
        ],
        life_paid=found.life_paid,
        from_pool=_mana(found.from_pool) if found.from_pool else None,
    )
