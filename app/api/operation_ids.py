"""Short camelCase OpenAPI operationIds (``spellCost``, ``scenarioCreate``), so generated SDKs get usable
method names. ``operation_id`` is FastAPI's ``generate_unique_id_function``: a route added later gets one
too, from the ``NAMES`` entry for its function name or, failing that, its function name in camelCase.
"""

from __future__ import annotations

from fastapi.routing import APIRoute

NAMES: dict[str, str] = {
    "healthz": "healthz",
    "readyz": "readyz",
    "metrics": "metrics",
    "list_problem_types": "problemTypeList",
    "get_problem_type": "problemTypeGet",
    "parse_mana_cost": "manaCostParse",
    "list_symbols": "symbolList",
    "named_card": "cardNamed",
    "get_card": "cardGet",
    "search_cards": "cardSearch",
    "creature_types": "creatureTypeList",
    "analyze_board": "boardAnalyze",
    "spell_cost": "spellCost",
    "spell_cost_batch": "spellCostBatch",
    "mental_magic_options": "mentalMagicOptions",
    "reveal": "heraldsHornReveal",
    "create_scenario": "scenarioCreate",
    "list_scenarios": "scenarioList",
    "get_scenario": "scenarioGet",
    "replace_scenario": "scenarioReplace",
    "delete_scenario": "scenarioDelete",
    "set_choice": "scenarioChoiceSet",
    "add_played_as": "scenarioPlayedAsAdd",
    "scenario_spell_cost": "scenarioSpellCost",
    "payment_plan": "paymentPlan",
    "parse_mana_cost_get": "manaCostParseQuery",
    "autocomplete": "cardAutocomplete",
    "card_collection": "cardCollection",
    "analyze_deck": "deckAnalyze",
    "deck_chart_svg": "deckChart",
    "deck_chart_vega_lite": "deckChartVegaLite",
}


def camel(name: str) -> str:
    """``spell_cost_batch`` -> ``spellCostBatch``."""
    head, *rest = [part for part in name.split("_") if part]
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def operation_id(route: APIRoute) -> str:
    """The operationId of ``route`` (``build_openapi`` suffixes the method where one route has several)."""
    return NAMES.get(route.name) or camel(route.name)
