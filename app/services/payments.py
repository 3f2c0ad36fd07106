"""``POST /v1/payments/plan``: read the board, find the player's mana sources, run the payment solver."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from sqlalchemy.orm import Session

from app.config import Settings
from app.errors import from_rules_error
from app.rules.casting.engine import SpellToCast
from app.rules.errors import RulesError
from app.rules.mana.abilities import Warning
from app.rules.mana.payment import PaymentSources, PlanStep, SymbolPayment, UnpayableError
from app.rules.mana.restrictions import Casting
from app.rules.mana.sources import CONVOKE, DELVE, GRAVEYARD_PREFIX, IMPROVISE, as_any_color, payment_inputs
from app.rules.values.board import Board
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name
from app.schemas.payments import PaymentPlanOut, PaymentPlanRequest, PlanStepOut, SymbolPaymentOut
from app.schemas.spells import CostWarningOut
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


def _named_symbols(cost: ManaCost, paid: ManaCost, payments: Sequence[SymbolPayment]) -> list[str]:
    """The symbol each payment paid, as the answer names it. With mana spent as though it were mana of any
    color (CR 609.4b, Chromatic Orrery) the solver pays the colored symbols as {1} (``as_any_color``); the
    answer still names the symbol of the cost that was paid, {W} paid with {C}, not a {1} the cost does not
    have. A converted symbol goes to a payment of its own color where there is one."""
    symbols = [p.symbol for p in payments]
    if paid is cost:  # no symbol was converted (``as_any_color`` not applied)
        return symbols
    converted = Counter(str(sym) for sym in cost.others) - Counter(str(sym) for sym in paid.others)
    free = [i for i, p in enumerate(payments) if p.target is None and p.symbol == "{1}"]
    for sym in (str(s) for s in cost.others):
        if converted[sym] == 0 or not free:
            continue
        converted[sym] -= 1
        own = [
            i for i in free if payments[i].mana is not None and payments[i].mana in sym.strip("{}").split("/")
        ]
        chosen = own[0] if own else free[0]
        free.remove(chosen)
        symbols[chosen] = sym
    return symbols


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
    spell_face: tuple[Card, Face] | None = None
    if request.spell is not None:
        to_cast = spell_to_cast(request.spell, catalogue=catalogue)
        casting = _casting(board, player, to_cast)
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
        warnings = [_warning(board, w) for w in inputs.warnings]
        paid = cost
        if inputs.any_color is not None and not inputs.no_mana:
            paid = as_any_color(cost)  # CR 609.4b: Chromatic Orrery; the answer's `cost` stays the cost
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
    symbols = _named_symbols(cost, paid, found.payments)
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
            _step(board, player, s, [symbols[j] for j, p in enumerate(found.payments) if p.step == i])
            for i, s in enumerate(found.steps)
        ],
        payments=[
            SymbolPaymentOut(
                symbol=symbols[j],
                pays=p.target,
                mana=p.mana,
                source="life" if p.mana is None else "pool" if p.step is None else owners[p.step],
            )
            for j, p in enumerate(found.payments)
        ],
        life_paid=found.life_paid,
        from_pool=_mana(found.from_pool) if found.from_pool else None,
        warnings=warnings,
    )
