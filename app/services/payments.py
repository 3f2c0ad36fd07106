"""``POST /v1/payments/plan``: read the board, find the player's mana sources, run the payment solver."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.config import Settings
from app.errors import from_rules_error
from app.rules.casting.spell_cost import SpellToCast
from app.rules.errors import RulesError
from app.rules.mana.ability_values import Warning
from app.rules.mana.payment import PaymentSources
from app.rules.mana.payment_values import PlanStep, SymbolPayment, UnpayableError
from app.rules.mana.restrictions import Casting
from app.rules.mana.sources import CONVOKE, DELVE, GRAVEYARD_PREFIX, IMPROVISE, payment_inputs
from app.rules.mana.spending import only_produced_by, spending_for
from app.rules.text.face_ways import ways_of
from app.rules.values.board import Board
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name
from app.rules.values.symbols import ManaSymbol
from app.schemas.payments import PaymentPlanOut, PaymentPlanRequest, PlanStepOut, SymbolPaymentOut
from app.schemas.warnings import CostWarningOut
from app.services.board_memo import BOARDS
from app.services.catalogue import Catalogue
from app.services.spells import compute, spell_to_cast
from app.services.unread_text import unread_for_costs


def _mana(types: tuple[str, ...]) -> str:
    return "".join(f"{{{t}}}" for t in types)


def _generic(types: tuple[str, ...]) -> str:
    """Convoke/improvise/delve mana modelled as {C} pays generic mana (``sources``)."""
    return "".join("{1}" if t == "C" else f"{{{t}}}" for t in types)


def _step(board: Board, player: str, s: PlanStep, paid: list[str]) -> PlanStepOut:
    """``paid``: the symbols its mana paid (a green creature convoked for generic mana paid ``{1}``)."""
    if s.ability == CONVOKE:
        return PlanStepOut(permanent=s.permanent, convoke="".join(paid) or _generic(s.adds))
    if s.ability == IMPROVISE:
        return PlanStepOut(permanent=s.permanent, improvise="".join(paid) or _generic(s.adds))
    if s.ability == DELVE:
        index = int(s.permanent.removeprefix(GRAVEYARD_PREFIX))
        return PlanStepOut(delve=board.player(player).graveyard[index].name)
    used = s.consumes
    return PlanStepOut(
        permanent=s.permanent,
        ability=s.ability,
        adds=_mana(s.adds),
        activation_cost=str(s.activation_cost) if s.activation_cost is not None else None,
        life_paid=s.life_paid,
        life=s.life_paid or None,
        sacrifices=list(used.sacrifices) or None,
        taps=list(used.taps) or None,
        returns=list(used.returns) or None,
        removes=dict(used.removes) or None,
        exiles=list(used.exiles) or None,
        discards=list(used.discards) or None,
    )


def _warning(board: Board, w: Warning) -> CostWarningOut:
    names = {p.id: p.card.name for p in board.permanents}
    return CostWarningOut(
        source=w.permanent if w.permanent in names else None,
        card=names.get(w.permanent, w.permanent),
        text=w.text,
        message=w.reason,
        rule=w.rule,
    )


_KICKERS = frozenset({"kicker", "multikicker"})
_COMMAND_ZONE = frozenset({"command", "command_zone"})


def _casting(board: Board, player: str, spell: SpellToCast) -> Casting:
    """How the request casts the spell, for restricted mana (CR 106.6): its zone and way, whether a kicker
    cost is paid (CR 702.33d: multikicker at least once), X, and whether it is the player's commander
    (CR 903.3: one of the player's stated commanders, or cast from the command zone; None when neither
    tells)."""
    you = board.player(player)
    if spell.cast_from in _COMMAND_ZONE:
        commander: bool | None = True
    elif you.commander or you.knows("commander"):
        commander = fold_name(spell.card.name) in {fold_name(c.name) for c in you.commander}
    else:
        commander = None
    return Casting(
        cast_from="command" if spell.cast_from in _COMMAND_ZONE else spell.cast_from,
        method=spell.method,
        kicked=any(o.keyword.casefold() in _KICKERS and o.times > 0 for o in spell.optional_costs),
        commander=commander,
        x=spell.x,
    )


def _own_mana_first(payments: list[SymbolPayment], paid: ManaCost) -> list[SymbolPayment]:
    """With mana spent as though it were another (CR 609.4b), the plan names each symbol paid with mana of
    its own type where the same mana could pay it: two payments of the same cost swap their mana when
    each symbol accepts the other's mana (the plan is as legal, and reads as the player would pay)."""
    accepts: dict[str, frozenset[str]] = {}
    for sym in paid.others:
        if sym.text != "{1}":
            accepts.setdefault(sym.text, frozenset(sym.colors) | ({"C"} if "C" in sym.text else set()))
    if not accepts:
        return payments
    own = {
        text: frozenset(ManaSymbol.parse(text).colors) | ({"C"} if "C" in text else set()) for text in accepts
    }
    for i, p in enumerate(payments):
        if p.symbol not in own or p.mana is None or p.mana in own[p.symbol]:
            continue
        for j, q in enumerate(payments):
            if (
                q.target == p.target
                and q.symbol in accepts
                and q.mana in own[p.symbol]
                and q.mana not in own[q.symbol]
                and p.mana in accepts[q.symbol]
            ):
                payments[i] = SymbolPayment(p.symbol, p.target, q.mana, q.step)
                payments[j] = SymbolPayment(q.symbol, q.target, p.mana, p.step)
                break
    return payments


def _x_spent(face: Face, x: int, optional: tuple[tuple[str, int, int], ...]) -> int:
    """The mana X stands for in the total (CR 107.3a): X times the X symbols of the mana cost and of the
    optional costs paid (Emblazoned Golem's "Kicker {X}")."""
    n = face.mana_cost.variables.count("X") if face.mana_cost is not None else 0
    if optional:
        own = ways_of(face)
        for keyword, which, times in optional:
            cost = own.optional_cost(keyword)
            if cost is not None and 1 <= which <= len(cost.costs):
                n += cost.costs[which - 1][0].variables.count("X") * max(times, 1)
    return x * n


def plan(*, request: PaymentPlanRequest, session: Session, settings: Settings) -> PaymentPlanOut:
    """A plan paying the cost (or the spell's total cost) from ``player``'s sources, pool and life."""
    catalogue = Catalogue(session)
    version = catalogue.data_version
    player = request.player
    built = BOARDS.get(request.board, catalogue, version, extra_players=(player,))
    board = built.board
    face: Face | None = None
    granted: tuple[str, ...] = ()
    casting: Casting | None = None
    to_cast_x = 0
    optional: tuple[tuple[str, int, int], ...] = ()
    alternative = False
    spell_face: tuple[Card, Face] | None = None
    if request.spell is not None:
        to_cast = spell_to_cast(request.spell, catalogue=catalogue)
        casting = _casting(board, player, to_cast)
        to_cast_x = to_cast.x
        optional = tuple((o.keyword, o.which, o.times) for o in to_cast.optional_costs)
        alternative = to_cast.method == "alternative" or to_cast.alternative_cost is not None
        result = compute(built.prepared, player, to_cast)
        cost, granted = result.total_cost, result.granted
        loc: tuple[str, ...] = ("body", "spell")
        try:
            card = to_cast.card
            face = (
                card.fused()
                if to_cast.face == "fuse"
                else card.face(to_cast.face)
                if to_cast.face
                else card.front
            )
        except RulesError as exc:
            raise from_rules_error(exc, ("body", "spell", "face")) from exc
        spell_face = (card, face)
    else:
        assert request.cost is not None  # the schema requires one of them
        cost = ManaCost.parse(request.cost)
        loc = ("body", "cost")
    answer = {"rules_edition": settings.rules_edition, "data_version": version}
    try:
        if request.spell is None:  # the board's sources for any cost: read and prepared once per board
            inputs, payer = built.payer(player)
        else:
            inputs = payment_inputs(
                board, player, cost, face, built.analysis, granted=granted, casting=casting
            )
            if inputs.no_mana:  # "You can't spend mana to cast this spell": not the pool's either
                payer = PaymentSources(inputs.sources, life=board.player(player).life)
            else:
                payer = built.sources_of(player, inputs)
        spending = spending_for(
            cost,
            built.analysis.state.states,
            player,
            face,
            casting,
            x_spent=_x_spent(face, to_cast_x, optional) if face is not None else 0,
            alternative=alternative,
        )
        warnings = [_warning(board, w) for w in (*inputs.warnings, *spending.warnings)]
        paid = cost if inputs.no_mana else spending.paid
        if spending.produced_by is not None and not inputs.no_mana:
            kept = only_produced_by(inputs.sources, built.analysis.state.states, spending.produced_by)
            payer = PaymentSources(kept, life=board.player(player).life)  # the pool's origin: unknown
            if board.pool_of(player) != ManaCost.zero():
                warnings.append(
                    CostWarningOut(
                        source=None,
                        card=face.name if face is not None else player,
                        text=spending.applied[0] if spending.applied else str(cost),
                        message="mana already in the pool is of unknown origin: not used (CR 106.6)",
                    )
                )
        warnings.extend(
            CostWarningOut(source=None, card=player, text=str(cost), message=note) for note in payer.notes
        )
        warnings.extend(unread_for_costs(built.unread, spell_face, warnings))
        found = payer.plan(paid)
    except UnpayableError as exc:
        return PaymentPlanOut(
            **answer, payable=False, cost=str(cost), plan=[], short=str(exc.short), warnings=warnings
        )
    except RulesError as exc:
        where = ("body", "board", "mana_pool", player) if getattr(exc, "field", None) == "mana_pool" else loc
        raise from_rules_error(exc, where) from exc
    payments = _own_mana_first(list(found.payments), paid)
    symbols = [p.symbol for p in payments]  # a rewritten symbol keeps the cost's text (spending)
    owners = [
        board.player(player).graveyard[int(s.permanent.removeprefix(GRAVEYARD_PREFIX))].name
        if s.ability == DELVE
        else s.permanent
        for s in found.steps
    ]
    return PaymentPlanOut(
        **answer,
        payable=True,
        cost=str(cost),
        plan=[
            _step(board, player, s, [symbols[j] for j, p in enumerate(payments) if p.step == i])
            for i, s in enumerate(found.steps)
        ],
        payments=[
            SymbolPaymentOut(
                symbol=symbols[j],
                pays=p.target,
                mana=p.mana,
                source="life" if p.mana is None else "pool" if p.step is None else owners[p.step],
            )
            for j, p in enumerate(payments)
        ],
        life_paid=found.life_paid,
        from_pool=_mana(found.from_pool) if found.from_pool else None,
        warnings=warnings,
    )
