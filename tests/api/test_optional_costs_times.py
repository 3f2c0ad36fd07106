"""``optional_costs`` over HTTP (API.md: ``which`` and ``times``): spree modes each chosen once by ``which``,
``times`` for the optional costs that can be paid more than once, and a 422 naming the rule for ``times``
on one that cannot (CR 601.2b, 118.8). Expected totals are worked out from the cards' text."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient


def cost(client: TestClient, spell: dict[str, Any]) -> Any:
    r = client.post("/v1/spells/cost", json={"spell": spell})
    assert r.status_code == 200, r.text
    return r.json()


def refused(client: TestClient, spell: dict[str, Any]) -> Any:
    r = client.post("/v1/spells/cost", json={"spell": spell})
    assert r.status_code == 422, r.text
    assert r.json()["type"].endswith("rules-violation"), r.text
    return r.json()


# Final Showdown {W}: "Spree" / "+ {1} — All creatures lose all abilities until end of turn." / "+ {1} —
# Choose a creature you control. It gains indestructible until end of turn." / "+ {3}{W}{W} — Destroy all
# creatures." CR 702.172a: each chosen mode's additional cost is added.
@pytest.mark.parametrize(
    ("modes", "total"),
    [
        ([1], "{1}{W}"),
        ([2], "{1}{W}"),
        ([3], "{3}{W}{W}{W}"),
        ([1, 3], "{4}{W}{W}{W}"),
        ([1, 2, 3], "{5}{W}{W}{W}"),
    ],
)
def test_each_spree_mode_by_which(client: TestClient, modes: list[int], total: str) -> None:
    body = cost(
        client,
        {"card": "Final Showdown", "optional_costs": [{"keyword": "spree", "which": m} for m in modes]},
    )
    assert body["total_cost"] == total
    assert not [w for w in body["warnings"] if "spree" in w["message"]]


def test_spree_ways_list_each_mode_alone(client: TestClient) -> None:
    body = cost(client, {"card": "Final Showdown", "optional_costs": [{"keyword": "spree", "which": 1}]})
    listed = [(w["optional_costs"], w["total_cost"]) for w in body["ways"]]
    assert listed == [  # which 1 is the default, left out as for kicker
        ([{"keyword": "spree"}], "{1}{W}"),
        ([{"keyword": "spree", "which": 2}], "{1}{W}"),
        ([{"keyword": "spree", "which": 3}], "{3}{W}{W}{W}"),
    ]


@pytest.mark.parametrize(
    ("card", "keyword", "times", "total"),
    [
        # Everflowing Chalice {0}: "Multikicker {2}" (CR 702.33c: paid any number of times)
        ("Everflowing Chalice", "multikicker", 3, "{6}"),
        # Gigadrowse {U}: "Replicate {U}" (CR 702.56a: paid any number of times)
        ("Gigadrowse", "replicate", 4, "{U}{U}{U}{U}{U}"),
        # Collective Defiance {1}{R}{R}: "Escalate {1}" (CR 702.120a: for each mode beyond the first)
        ("Collective Defiance", "escalate", 2, "{3}{R}{R}"),
    ],
)
def test_times_on_a_repeatable_cost(
    client: TestClient, card: str, keyword: str, times: int, total: str
) -> None:
    body = cost(client, {"card": card, "optional_costs": [{"keyword": keyword, "times": times}]})
    assert body["total_cost"] == total


@pytest.mark.parametrize(
    ("spell", "rule"),
    [
        # Final Showdown: "Spree" - each mode is chosen once (CR 702.172a), its cost paid once
        (
            {"card": "Final Showdown", "optional_costs": [{"keyword": "spree", "which": 3, "times": 2}]},
            "702.172a",
        ),
        # Tooth and Nail: "Entwine {2}" (CR 702.42a): paid once
        ({"card": "Tooth and Nail", "optional_costs": [{"keyword": "entwine", "times": 2}]}, "702.42a"),
    ],
)
def test_times_on_a_cost_that_cannot_repeat_is_a_422_naming_the_rule(
    client: TestClient, spell: dict[str, Any], rule: str
) -> None:
    assert refused(client, spell)["rule"] == rule


def test_a_spree_mode_chosen_twice_is_refused(client: TestClient) -> None:
    spell = {"card": "Final Showdown", "optional_costs": [{"keyword": "spree", "which": 1}] * 2}
    assert refused(client, spell)["rule"] == "702.172a"


def test_times_on_an_any_number_additional_cost(client: TestClient) -> None:
    # Devouring Greed {2}{B}{B}: "As an additional cost to cast this spell, you may sacrifice any number of
    # Spirits." (CR 601.2b: one Spirit each time): three Spirits are three sacrifices, no mana added
    spell = {"card": "Devouring Greed", "optional_costs": [{"keyword": "additional cost", "times": 3}]}
    body = cost(client, spell)
    assert body["total_cost"] == "{2}{B}{B}"
    assert len(body["other_costs"]) == 3
    assert all(
        o["text"].casefold().startswith("sacrifice one of any number of spirits") for o in body["other_costs"]
    )
