"""Ways to cast offered and chosen (CR 601.2b, 601.3, 118.9): the ways the card and the board offer from a
zone (``offered_ways``), the one the request announces (``chosen_way``, with its 422 when it is not
offered), the conditions a way reads (spectacle, surge, offering, emerge: the hooks for a way's own
checks live in ``_check_way_condition``), and the characteristics a way gives (face down, disturb,
prototype).
"""

from __future__ import annotations

from typing import Final, NoReturn

from app.rules.casting.availability import controls_condition, unknown_message, way_availability
from app.rules.casting.prepared import PreparedBoard
from app.rules.casting.spell_cost import CastCharacteristics, CostRun, CostWarning, SpellToCast
from app.rules.effects.cost_effects import FACE_DOWN_NAME
from app.rules.effects.keywords import keyword_rule
from app.rules.effects.permissions import Permission, PermissionKind
from app.rules.effects.ways import CardWays, OptionalCost, Way, WayKind
from app.rules.errors import IllegalError, InvalidChoiceError
from app.rules.text.reading import read_face
from app.rules.text.sacrifice_ways import with_sacrifice
from app.rules.values.board import Board, Permanent
from app.rules.values.cards import Card, Face
from app.rules.values.costs import ManaCost
from app.rules.values.names import fold_name
from app.rules.values.types import TypeLine

FACE_DOWN: Final = Face(FACE_DOWN_NAME, None, TypeLine.parse("Creature"))


"""CR 708.2a: a face-down spell is a 2/2 creature with no name, no mana cost, no types but creature."""


def way_mana(way: Way) -> ManaCost:
    if way.kind is WayKind.FACE_DOWN:
        return ManaCost.of(3)  # 702.37c, 702.168a: {3} rather than its mana cost
    if way.kind is WayKind.WITHOUT_MANA or way.cost is None:
        return ManaCost.zero()  # 118.9: "without paying its mana cost" is an alternative cost of {0}
    return way.cost


def has_aftermath(face: Face) -> bool:
    return any(w.keyword == "aftermath" for w in read_face(face).ways.ways)


_NEEDS_PERMISSION: Final = ("graveyard", "library")


def _zone(zone: str) -> str:
    """ "the graveyard", "exile", "the top of the library" as a sentence says it."""
    return {"exile": "exile", "library": "the top of the library"}.get(zone, f"the {zone}")


def _covered(board: Board, caster: str, source: Permanent, perm: Permission, face: Face, card: Card) -> bool:
    """Whether ``perm`` of ``source`` reaches this spell: its controller's spells ("you may cast", any
    player's for "any player may cast"), of the kind described, the named card for a trigger's target."""
    if source.controller != caster and not perm.any_player:
        return False
    if perm.your_turn and board.active_player != source.controller:  # "during your turn" (CR 500)
        return False
    if perm.named_card and (
        source.chosen.card_name is None
        or fold_name(source.chosen.card_name) not in (fold_name(card.name), fold_name(face.name))
    ):
        return False
    if perm.chosen_type:  # "creature spells of the chosen type" (CR 205.3m): none chosen, none covered
        chosen = source.chosen.creature_type
        if chosen is None or not face.has_creature_type(chosen):
            return False
    return perm.spells.covers(face)


def offered_ways(
    prepared: PreparedBoard, caster: str, cast_from: str, face: Face, card: Card
) -> list[Way | None]:
    """Every way to cast ``face`` from ``cast_from`` on this board (CR 601.2b, 601.3, 118.9), in order:

    - the normal way (None from the hand or the command zone; from another zone, one per permission to cast
      from there for the normal costs: the card's own "You may cast ~ from your graveyard", or a permanent's
      or effect's, ``granted_by`` it);
    - the card's keyword ways that apply from that zone (702.x; "using its mutate ability" adds a zone);
    - the alternative costs written in its text (118.9), wherever it may be cast from;
    - the ways permanents grant: alternative costs (Omniscience, Leyline of Mutation), life for mana
      (Bolas's Citadel), escape and flashback (Underworld Breach, Past in Flames, a Snapcaster's target).
    """
    own = read_face(face).ways
    out = _own_normal_ways(own, cast_from, face, card)
    zone_open = bool(out)
    normal, granted, alternatives = _ways_granted(prepared, caster, cast_from, face, card)
    out.extend(normal)
    zone_open = zone_open or bool(normal)
    extra = {kw for kw, zone in own.extra_zones if zone == cast_from}
    for way in own.ways:
        if way.keyword == "alternative":
            if cast_from in way.zones and (zone_open or way.rule == "601.3"):
                out.append(way)
        elif cast_from in way.zones or way.keyword in extra:
            out.append(
                with_sacrifice(prepared.board, caster, face, way)
            )  # emerge, offering: what it sacrifices
    if zone_open:
        granted.extend(alternatives)
    out.extend(granted)
    return out


def _own_normal_ways(own: CardWays, cast_from: str, face: Face, card: Card) -> list[Way | None]:
    """The normal way from ``cast_from`` by the rules or the card itself: None from the hand or the command
    zone (CR 601.2), an Adventure card from exile (715.4), the card's own "You may cast ~ from your
    graveyard" (601.3)."""
    out: list[Way | None] = []
    if cast_from in ("hand", "command"):
        out.append(None)
    elif cast_from == "exile" and card.layout == "adventure" and face is card.front:
        # CR 715.4: an Adventure that resolved is exiled, and its controller may cast the card later from
        # exile, but not as an Adventure (the front face's characteristics)
        text = "it went on an adventure: it may be cast from exile, not as an Adventure"
        out.append(Way("normal", "715.4", WayKind.WITH_MANA_COST, ("exile",), None, (), None, text))
    for p in own.permissions:
        if p.zone == cast_from:
            way = Way(
                "normal", p.rule, WayKind.WITH_MANA_COST, (p.zone,), None, p.other_costs, p.condition, p.text
            )
            out.append(way)
    return out


def _ways_granted(
    prepared: PreparedBoard, caster: str, cast_from: str, face: Face, card: Card
) -> tuple[list[Way], list[Way], list[Way]]:
    """What permanents and effects grant this spell from ``cast_from`` (CR 601.3, 613): the zones it may be
    cast from for its normal costs, the keyword ways and life for mana, and the alternative costs (118.9),
    which apply only where the card may be cast."""
    normal: list[Way] = []
    granted: list[Way] = []
    alternatives: list[Way] = []
    for source, perm in prepared.permissions:
        if cast_from not in perm.zones or not _covered(prepared.board, caster, source, perm, face, card):
            continue
        if perm.kind is PermissionKind.ZONE and perm.life_for_mana:
            granted.append(_granted_way(source, perm, "alternative", WayKind.ALTERNATIVE, ManaCost.zero()))
        elif perm.kind is PermissionKind.ZONE:
            normal.append(_granted_way(source, perm, "normal", WayKind.WITH_MANA_COST))
        elif perm.kind is PermissionKind.KEYWORD and perm.keyword is not None:
            granted.append(_granted_way(source, perm, perm.keyword, WayKind.WITH_MANA_COST))
        elif perm.kind is PermissionKind.ALTERNATIVE:
            alternatives.append(_granted_way(source, perm, "alternative", WayKind.ALTERNATIVE, perm.cost))
    return normal, granted, alternatives


def _granted_way(
    source: Permanent, perm: Permission, keyword: str, kind: WayKind, cost: ManaCost | None = None
) -> Way:
    """A way ``source`` grants: its permission's rule, zones and text, its keyword's extra costs."""
    return Way(
        keyword,
        perm.rule,
        kind,
        perm.zones,
        cost,
        perm.other_costs,
        None,
        perm.text,
        granted_by=source.id,
        life_for_mana=perm.life_for_mana,
        once_per_turn=perm.once_per_turn,
    )


def granted_optional(
    prepared: PreparedBoard, caster: str, face: Face, card: Card
) -> tuple[tuple[Permanent, Permission, OptionalCost], ...]:
    """CR 613.1f, 601.2b: the optional additional costs permanents give this spell as its own (Djinn
    Illuminatus's replicate at its mana cost, Zinnia's offspring {2}, Anhelo's casualty 2), each as the
    card's own ``OptionalCost`` would be, with the permanent and its permission."""
    out: list[tuple[Permanent, Permission, OptionalCost]] = []
    for source, perm in prepared.permissions:
        if perm.kind is not PermissionKind.OPTIONAL or perm.keyword is None:
            continue
        if not _covered(prepared.board, caster, source, perm, face, card):
            continue
        mana = (face.mana_cost or ManaCost.zero()) if perm.cost_is_mana_cost else perm.cost
        if mana is None:
            continue  # "has replicate" with no cost read: not_read says so
        repeatable = perm.keyword == "replicate"  # CR 702.56a: paid any number of times
        opt = OptionalCost(perm.keyword, perm.rule, ((mana, perm.other_costs),), repeatable, perm.text)
        out.append((source, perm, opt))
    return tuple(out)


def _matches(way: Way | None, method: str, which: int | None, granted_by: str | None) -> bool:
    keyword = "normal" if way is None else way.keyword
    if keyword != method:
        return False
    if which is not None and (way is None or way.which != which):
        return False
    return granted_by is None or (way is not None and way.granted_by == granted_by)


def chosen_way(
    prepared: PreparedBoard, caster: str, spell: SpellToCast, chars: CastCharacteristics, run: CostRun
) -> Way | None:
    """CR 601.2b: the way to cast announced, among the ways ``offered_ways`` finds on this board.

    No ``method``: the normal way from the hand; from another zone, the card's own way there first (a card
    with flashback cast from a graveyard has only its flashback cost, 702.34a), then a permission's. A method
    the card lacks and no permanent grants, or that does not apply from ``cast_from``, is illegal under its
    rule; casting from a graveyard or a library needs a permission (601.3).
    """
    board = prepared.board
    if chars.cast_as is not None:  # Mental Magic casts from the hand as another card's characteristics
        offered: list[Way | None] = [None]
    else:
        offered = offered_ways(prepared, caster, spell.cast_from, chars.face, spell.card)
    method = spell.method
    if method is None and spell.which is not None:  # "which" numbers the alternative costs of the text
        method = "alternative"
    if chars.cast_as is None and has_aftermath(chars.face) and spell.cast_from != "graveyard":
        raise IllegalError(
            f"{chars.face.name} has aftermath: it is cast only from a graveyard", rule="702.127a"
        )
    if method is None:
        way = _unnamed_way(board, caster, spell, chars.face, offered, run)
    else:
        way = _named_way(method, spell, chars.face, offered, run)
    if way is None:
        return None
    if spell.alternative_cost is not None and way.kind is not WayKind.WITH_MANA_COST:
        raise IllegalError("only one alternative cost can be applied to a spell", rule="118.9a")
    if not spell.condition_assumed:
        _check_way_condition(board, caster, way, chars.face.name, run)
    return way


def _unnamed_way(
    board: Board, caster: str, spell: SpellToCast, face: Face, offered: list[Way | None], run: CostRun
) -> Way | None:
    """CR 601.2b, 601.3: no method named: the normal way where it is offered (None), else the card's own
    keyword way from that zone, a permission for the normal costs, a granted keyword way, in that order;
    among those, the first whose condition holds on this board ("as long as you control a Zombie")."""
    zone = spell.cast_from
    if spell.granted_by is None and None in offered:
        return None  # the normal way, from the hand or the command zone
    pool = [w for w in offered if w is not None and spell.granted_by in (None, w.granted_by)]
    own_keyword = [w for w in pool if w.granted_by is None and w.keyword not in ("normal", "alternative")]
    normal = [w for w in pool if w.keyword == "normal"]
    granted_keyword = [w for w in pool if w.granted_by is not None and w.keyword != "normal"]
    pick = own_keyword or normal or granted_keyword or pool
    if not pick:
        if spell.granted_by is not None:
            raise IllegalError(
                f"{spell.granted_by} does not let {face.name} be cast from {_zone(zone)}", rule="601.3"
            )
        _no_permission(zone, face.name, run)
        return None
    way = next(
        (
            w
            for w in pick
            if w.condition is None or controls_condition(board, caster, w.condition) is not False
        ),
        pick[0],
    )
    by = f" granted by {way.granted_by}" if way.granted_by else ""
    label = "normal costs" if way.keyword == "normal" else way.keyword
    run.choices.append(f"cast from {_zone(zone)} by its {label}{by} (CR {way.rule})")
    return way


def _named_way(
    method: str, spell: SpellToCast, face: Face, offered: list[Way | None], run: CostRun
) -> Way | None:
    """CR 601.2b: the first way offered with the method named (and ``which``, ``granted_by`` when given);
    none is a 422 under the rule that refuses it (``_refuse``)."""
    found = [w for w in offered if _matches(w, method, spell.which, spell.granted_by)]
    if not found:
        _refuse(method, spell, face, read_face(face).ways, offered)
    way = found[0]
    if len(found) > 1 and spell.which is None and spell.granted_by is None and way is not None:
        run.choices.append(f"{method}: the first of {len(found)} ways offered (give which or granted_by)")
    return way


def _no_permission(zone: str, name: str, run: CostRun) -> None:
    """CR 601.3: a card is cast from a zone other than the hand only where a rule or effect allows it."""
    if zone in _NEEDS_PERMISSION:
        raise IllegalError(
            f"nothing allows {name} to be cast from {_zone(zone)}: neither its text nor a permanent or "
            "effect on this board (CR 601.3)",
            rule="601.3",
        )
    message = (
        f"nothing in its text or on the board allows casting it from {_zone(zone)} (CR 601.3); costed as "
        "if an effect did"
    )
    run.warnings.append(CostWarning(None, name, zone, message))


def _refuse(
    method: str, spell: SpellToCast, face: Face, own: CardWays, offered: list[Way | None]
) -> NoReturn:
    """The 422 for a way not offered: why, with its rule."""
    zone = spell.cast_from
    if method == "normal":
        here = [w for w in offered if w is not None and w.granted_by is None and w.keyword != "alternative"]
        if here:
            raise IllegalError(
                f"from {_zone(zone)}, {face.name} is cast by its {here[0].keyword} (CR {here[0].rule}), "
                "not normally",
                rule=here[0].rule,
            )
        if spell.granted_by is not None:
            raise IllegalError(
                f"{spell.granted_by} does not let {face.name} be cast from {_zone(zone)}", rule="601.3"
            )
        raise IllegalError(
            f"nothing allows {face.name} to be cast from {_zone(zone)} for its normal costs (CR 601.3)",
            rule="601.3",
        )
    if method == "alternative":
        mine = [w for w in own.ways if w.keyword == "alternative"]
        if spell.which is not None and mine and not any(w.which == spell.which for w in mine):
            raise InvalidChoiceError(
                f"{face.name} has {len(mine)} alternative cost(s) in its text, not a cost {spell.which}",
                field="which",
            )
        if mine:
            raise IllegalError(
                f"{face.name}'s alternative cost applies only where it may be cast; nothing allows "
                f"casting it from {_zone(zone)} (CR 601.3)",
                rule="601.3",
            )
        by = f" and {spell.granted_by} grants none" if spell.granted_by else " and no permanent grants one"
        raise IllegalError(f"{face.name} has no alternative cost in its text{by} (CR 118.9)", rule="118.9")
    rule = keyword_rule(method) or "601.2b"
    named = own.way(method)
    if named is not None:
        zones = " or ".join(named.zones)
        raise IllegalError(
            f"{method} applies when the card is cast from the {zones}, not from {_zone(zone)}",
            rule=named.rule,
        )
    if spell.granted_by is not None:
        raise IllegalError(f"{spell.granted_by} does not give {face.name} {method} here", rule=rule)
    raise IllegalError(
        f"{face.name} has no {method} in its text and no permanent or effect on this board grants it",
        rule=rule,
    )


def _check_way_condition(board: Board, caster: str, way: Way, name: str, run: CostRun) -> None:
    """CR 601.2b: the way announced must be available on this board (``way_availability``): a condition
    the board says is false is a 422 naming it; one the request does not decide is assumed to hold, with a
    warning naming the field that would decide it (nothing silent)."""
    found = way_availability(board, caster, way, name)
    if found.available is True:
        return
    if found.available is False:
        raise IllegalError(found.reason or f"{way.keyword} is not available on this board", rule=way.rule)
    run.warnings.append(CostWarning(way.granted_by, name, way.text, unknown_message(way, found)))


def way_characteristics(chars: CastCharacteristics, way: Way | None, card: Card) -> CastCharacteristics:
    """The spell's characteristics under its way: face down (708.2a, mana value 0), transformed for disturb
    (712.8e: the back face, its mana value from the front), prototyped (718.3b: the prototype cost)."""
    if way is None:
        return chars
    if way.kind is WayKind.FACE_DOWN:
        return CastCharacteristics(FACE_DOWN, chars.cast_as, None, None)
    if way.keyword == "disturb" and len(card.faces) > 1:
        return CastCharacteristics(card.faces[1], chars.cast_as, chars.mana_cost, card.front.mana_cost)
    if way.keyword == "prototype" and way.cost is not None:
        return CastCharacteristics(chars.face, chars.cast_as, chars.mana_cost, way.cost)
    return chars
