"""Activation costs paid from the board (API 1.2): plans that sacrifice, tap others, remove counters,
discard; analysis that says what is missing; prohibitions (CR 602.5). Over HTTP, bundled catalogue."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient


def perm(pid: str, card: str | dict[str, Any], **kw: Any) -> dict[str, Any]:
    return {"id": pid, "card": card, **kw}


def pay(client: TestClient, permanents: list[dict[str, Any]], cost: str, **board: Any) -> Any:
    r = client.post("/v1/payments/plan", json={"board": {"permanents": permanents, **board}, "cost": cost})
    assert r.status_code == 200, r.text
    return r.json()


def abilities(client: TestClient, permanents: list[dict[str, Any]], pid: str, **board: Any) -> Any:
    r = client.post("/v1/boards/analyze", json={"board": {"permanents": permanents, **board}})
    assert r.status_code == 200, r.text
    body = r.json()
    return next(p for p in body["permanents"] if p["id"] == pid)["abilities"], body["warnings"]


def steps(body: Any) -> list[dict[str, Any]]:
    return [{k: v for k, v in s.items() if v is not None and k != "life_paid"} for s in body["plan"]]


def test_ashnods_altar_sacrifices_the_bears(client: TestClient) -> None:
    """Ashnod's Altar: "Sacrifice a creature: Add {C}{C}." (API 1.2's own example)."""
    body = pay(client, [perm("altar", "Ashnod's Altar"), perm("bears", "Grizzly Bears")], "{C}{C}")
    assert body["payable"] is True
    assert steps(body) == [{"permanent": "altar", "ability": 0, "adds": "{C}{C}", "sacrifices": ["bears"]}]


def test_an_elf_taps_for_mana_then_is_sacrificed_never_the_reverse(client: TestClient) -> None:
    """CR 701.21a: a sacrificed permanent is gone; Llanowar Elves may tap for {G} first."""
    board = [perm("altar", "Ashnod's Altar"), perm("elf", "Llanowar Elves")]
    body = pay(client, board, "{G}{C}{C}")
    assert [s["permanent"] for s in body["plan"]] == ["elf", "altar"]
    assert body["plan"][1]["sacrifices"] == ["elf"]
    # it leaves once: one creature is one {C}{C}
    assert pay(client, board, "{G}{C}{C}{C}{C}")["payable"] is False


def test_springleaf_drum_taps_a_creature_that_just_came_under_control(client: TestClient) -> None:
    """Springleaf Drum "{T}, Tap an untapped creature you control": no {T} of the creature is paid, so CR
    302.6 does not stop an Ornithopter that came under control this turn."""
    board = [perm("drum", "Springleaf Drum"), perm("orn", "Ornithopter", controlled_since_turn_began=False)]
    body = pay(client, board, "{B}")
    assert steps(body) == [{"permanent": "drum", "ability": 0, "adds": "{B}", "taps": ["orn"]}]
    alone = pay(client, [perm("drum", "Springleaf Drum")], "{B}")
    assert alone["payable"] is False and alone["short"] == "{B}"


def test_a_permanent_taps_once_drum_or_its_own_mana(client: TestClient) -> None:
    """Llanowar Elves can tap for {G} or be tapped for the Drum, not both (CR 118.3)."""
    board = [perm("drum", "Springleaf Drum"), perm("elf", "Llanowar Elves")]
    assert pay(client, board, "{B}")["payable"] is True
    assert pay(client, board, "{G}")["payable"] is True
    both = pay(client, board, "{B}{G}")
    assert both["payable"] is False and both["short"] == "{B}"


def test_counters_removed_are_shown_and_counted(client: TestClient) -> None:
    """Vivid Crag "{T}, Remove a charge counter from Vivid Crag: Add one mana of any color."; Pentad Prism
    (no {T}) once per counter."""
    crag = pay(client, [perm("crag", "Vivid Crag", counters={"charge": 1})], "{U}")
    assert steps(crag) == [{"permanent": "crag", "ability": 1, "adds": "{U}", "removes": {"charge": 1}}]
    prism = [perm("prism", "Pentad Prism", counters={"charge": 2})]
    assert len(pay(client, prism, "{W}{U}")["plan"]) == 2
    one = pay(client, [perm("prism", "Pentad Prism", counters={"charge": 1})], "{W}{U}")
    assert one["payable"] is False and one["short"] == "{W}"


def test_unstated_counters_are_zero_with_a_warning(client: TestClient) -> None:
    """API 1.1: a count the board does not state is 0, and the answer says so."""
    body = pay(client, [perm("crag", "Vivid Crag")], "{U}")
    assert body["payable"] is False
    assert any("not stated" in w["message"] for w in body["warnings"])
    abs_, warnings = abilities(client, [perm("crag", "Vivid Crag")], "crag")
    assert abs_[1]["can_activate"] is False and abs_[1]["reasons"][0]["rule"] == "118.3"
    assert any(w["permanent"] == "crag" and "not stated" in w["reason"] for w in warnings)


def test_analysis_names_what_is_missing(client: TestClient) -> None:
    rangers, _w = abilities(client, [perm("r", "Birchlore Rangers")], "r")
    assert rangers[0]["can_activate"] is False
    assert rangers[0]["reasons"][0]["rule"] == "118.3" and "needs 2" in rangers[0]["reasons"][0]["text"]
    two = [perm("r", "Birchlore Rangers"), perm("e", "Llanowar Elves", controlled_since_turn_began=False)]
    assert abilities(client, two, "r")[0][0]["can_activate"] is True  # CR 302.6: no {T} of theirs
    kaleidoscope, _w = abilities(client, [perm("k", "Diamond Kaleidoscope")], "k")
    assert kaleidoscope[1]["can_activate"] is False and "Prism" in kaleidoscope[1]["reasons"][0]["text"]
    guide, _w = abilities(client, [perm("esg", "Elvish Spirit Guide")], "esg")
    assert guide[0]["can_activate"] is False and guide[0]["reasons"][0]["rule"] == "113.6m"


def test_lions_eye_diamond_discards_the_hand(client: TestClient) -> None:
    """ "Discard your hand, Sacrifice Lion's Eye Diamond: Add three mana of any one color." The step says
    both: the hand discarded, the Diamond itself sacrificed."""
    board = [perm("led", "Lion's Eye Diamond")]
    body = pay(client, board, "{R}{R}{R}", players={"you": {"hand": ["Lightning Bolt"]}})
    assert steps(body) == [
        {
            "permanent": "led",
            "ability": 0,
            "adds": "{R}{R}{R}",
            "sacrifices": ["led"],
            "discards": ["Lightning Bolt"],
        }
    ]


def test_stony_silence_forbids_sol_ring(client: TestClient) -> None:
    """Stony Silence: "Activated abilities of artifacts can't be activated." (CR 602.5)"""
    board = [perm("sol", "Sol Ring"), perm("silence", "Stony Silence")]
    body = pay(client, board, "{2}")
    assert body["payable"] is False and body["short"] == "{2}"
    abs_, _w = abilities(client, board, "sol")
    assert abs_[0]["can_activate"] is False
    assert abs_[0]["reasons"] == [
        {
            "rule": "602.5",
            "text": "Stony Silence (silence): Activated abilities of artifacts can't be activated.",
        }
    ]


def test_cursed_totem_and_pithing_needle(client: TestClient) -> None:
    totem = [perm("elf", "Llanowar Elves"), perm("totem", "Cursed Totem")]
    assert pay(client, totem, "{G}")["payable"] is False
    # Pithing Needle spares mana abilities; Phyrexian Revoker does not
    needle = [perm("sol", "Sol Ring"), perm("n", "Pithing Needle", chosen={"card_name": "Sol Ring"})]
    assert pay(client, needle, "{2}")["payable"] is True
    revoker = [perm("sol", "Sol Ring"), perm("r", "Phyrexian Revoker", chosen={"card_name": "sol ring"})]
    assert pay(client, revoker, "{2}")["payable"] is False
    abs_, _w = abilities(client, revoker, "sol")
    assert abs_[0]["reasons"][0]["rule"] == "602.5" and "(r)" in abs_[0]["reasons"][0]["text"]
    unnamed = [perm("sol", "Sol Ring"), perm("r", "Phyrexian Revoker")]
    _abs, warnings = abilities(client, unnamed, "sol")
    assert any(w["permanent"] == "r" and "no card name chosen" in w["reason"] for w in warnings)


def test_linvala_forbids_only_opponents_creatures(client: TestClient) -> None:
    board = [
        perm("elf", "Llanowar Elves"),
        perm("linvala", "Linvala, Keeper of Silence", controller="opponent"),
    ]
    assert pay(client, board, "{G}")["payable"] is False
    mine = [perm("elf", "Llanowar Elves"), perm("linvala", "Linvala, Keeper of Silence")]
    assert pay(client, mine, "{G}")["payable"] is True


def test_hogaak_cannot_be_paid_with_mana(client: TestClient) -> None:
    """Hogaak: "You can't spend mana to cast this spell." Convoke and delve only; lands and pool never."""
    swamps = [perm(f"s{i}", "Swamp") for i in range(7)]
    body = client.post(
        "/v1/payments/plan",
        json={
            "board": {"permanents": swamps, "mana_pool": {"you": "{G}"}},
            "spell": {"card": "Hogaak, Arisen Necropolis"},
        },
    ).json()
    assert body["payable"] is False
    black = {"name": "Black Bear", "mana_cost": "{1}{B}", "type_line": "Creature — Bear", "oracle_text": ""}
    creatures = [perm("elf", "Llanowar Elves"), perm("bear", black), *swamps]
    board = {"permanents": creatures, "players": {"you": {"graveyard": ["Forest"] * 5}}}
    body = client.post(
        "/v1/payments/plan", json={"board": board, "spell": {"card": "Hogaak, Arisen Necropolis"}}
    ).json()
    assert body["payable"] is True
    assert all(s["convoke"] or s["delve"] for s in body["plan"])  # no Swamp tapped for mana
    assert len([s for s in body["plan"] if s["delve"]]) == 5


def test_chromatic_orrery_spends_colorless_as_any_color(client: TestClient) -> None:
    """Chromatic Orrery: "You may spend mana as though it were mana of any color." and "{T}: Add
    {C}{C}{C}{C}{C}." (CR 609.4b): its five {C} pay {W}{U}{B}{R}{G}, though not a {C} symbol's type rule."""
    body = pay(client, [perm("o", "Chromatic Orrery")], "{W}{U}{B}{R}{G}")
    assert body["payable"] is True and body["cost"] == "{W}{U}{B}{R}{G}"
    wastes = [perm(f"w{i}", "Wastes") for i in range(5)]
    assert pay(client, wastes, "{W}{U}{B}{R}{G}")["payable"] is False
    assert pay(client, [perm("o", "Chromatic Orrery")], "{W}{U}{B}{R}{G}{G}")["short"] == "{1}"


def test_chromatic_orrery_payments_name_the_symbols_of_the_cost(client: TestClient) -> None:
    """CR 609.4b lets {C} be spent as though it were any color; the symbol paid is still {W}, not a {1}
    the cost does not have. With a Plains beside the Orrery, the Plains' {W} pays the {W}."""
    body = pay(client, [perm("o", "Chromatic Orrery")], "{2}{W}{U}")
    assert sorted(p["symbol"] for p in body["payments"]) == ["{1}", "{1}", "{U}", "{W}"]
    assert {p["mana"] for p in body["payments"]} == {"C"}
    body = pay(client, [perm("o", "Chromatic Orrery"), perm("p", "Plains")], "{W}{U}{U}{U}{U}{U}")
    assert body["payable"] is True
    by_symbol = sorted((p["symbol"], p["mana"]) for p in body["payments"])
    assert by_symbol == [("{U}", "C")] * 5 + [("{W}", "W")]
    assert body["plan"][0]["adds"] in ("{C}{C}{C}{C}{C}", "{W}")


def test_spirit_guide_from_the_hand_and_jack_o_lantern_from_the_graveyard(client: TestClient) -> None:
    """CR 113.6m: "Exile Elvish Spirit Guide from your hand: Add {G}." works from the hand; "{1}, Exile
    Jack-o'-Lantern from your graveyard: Add one mana of any color." from the graveyard."""
    body = pay(client, [], "{G}", players={"you": {"hand": ["Elvish Spirit Guide"]}})
    assert body["payable"] is True and body["plan"][0]["exiles"] == ["Elvish Spirit Guide"]
    assert pay(client, [], "{G}", players={"you": {"graveyard": ["Elvish Spirit Guide"]}})["payable"] is False
    jack = {"you": {"graveyard": ["Jack-o'-Lantern"]}}
    body = pay(client, [perm("w", "Wastes")], "{U}", players=jack)
    assert body["payable"] is True
    assert [s["permanent"] for s in body["plan"]] == ["w", "graveyard:0"]  # its {1} paid first
    # Stony Silence reaches an artifact card's ability in the graveyard too (CR 602.5)
    silenced = pay(client, [perm("w", "Wastes"), perm("s", "Stony Silence")], "{U}", players=jack)
    assert silenced["payable"] is False


def test_alpine_moon_with_a_chosen_name(client: TestClient) -> None:
    """Alpine Moon: the opponents' lands of the chosen name lose their abilities and land types (CR 305.7,
    613.1d) and gain "{T}: Add one mana of any color." (613.1f)."""
    moon = {"card_name": "Volcanic Island"}
    board = [perm("v", "Volcanic Island"), perm("moon", "Alpine Moon", controller="opponent", chosen=moon)]
    abs_, _w = abilities(client, board, "v")
    assert [(a["origin"], a["granted_by"], a["cost"]) for a in abs_] == [("granted", "moon", "{T}")]
    assert pay(client, board, "{G}")["payable"] is True
    unnamed = [perm("v", "Volcanic Island"), perm("moon", "Alpine Moon", controller="opponent")]
    _abs, warnings = abilities(client, unnamed, "v")
    assert any(w["permanent"] == "moon" and "no card name chosen" in w["reason"] for w in warnings)


def test_riftstone_portal_grants_from_the_graveyard(client: TestClient) -> None:
    """Riftstone Portal: "As long as Riftstone Portal is in your graveyard, lands you control have "{T}:
    Add {G} or {W}."" (CR 113.6b: it works from the graveyard only)."""
    board = [perm("m", "Mountain")]
    assert pay(client, board, "{W}", players={"you": {"graveyard": ["Riftstone Portal"]}})["payable"] is True
    assert pay(client, board, "{W}")["payable"] is False
    on_battlefield = [perm("m", "Mountain"), perm("rp", "Riftstone Portal")]
    assert pay(client, on_battlefield, "{W}")["payable"] is False


def test_station_and_max_speed_abilities_exist_past_their_threshold(client: TestClient) -> None:
    """Evendo, Waking Haven: "STATION 12+ / {G}, {T}: Add {G} for each creature you control." (CR 721.2a);
    Endrider Catalyzer: "Max speed — {T}: Add {R}{R}." (CR 702.178a: as long as your speed is 4)."""
    abs_, warnings = abilities(client, [perm("e", "Evendo, Waking Haven")], "e")
    assert abs_[1]["can_activate"] is False and abs_[1]["reasons"][0]["rule"] == "721.2a"
    assert any(w["permanent"] == "e" and "not stated" in w["reason"] for w in warnings)
    charged = [perm("e", "Evendo, Waking Haven", counters={"charge": 12})]
    assert abilities(client, charged, "e")[0][1]["can_activate"] is True
    cat = [perm("c", "Endrider Catalyzer")]
    assert pay(client, cat, "{R}")["payable"] is False
    assert pay(client, cat, "{R}{R}", players={"you": {"speed": 4}})["payable"] is True


def test_lands_pay_before_anything_is_sacrificed_or_spent(client: TestClient) -> None:
    """CR 118.3 lets Ashnod's Altar ("Sacrifice a creature: Add {C}{C}."), Lotus Petal ("{T}, Sacrifice
    Lotus Petal: Add one mana of any color.") and a Vivid land's counter pay; a plan uses them only where
    the lands and rocks that cost nothing else do not pay."""
    board = [
        perm("f1", "Forest"),
        perm("f2", "Forest"),
        perm("i1", "Island"),
        perm("sol", "Sol Ring"),
        perm("altar", "Ashnod's Altar"),
        perm("bears", "Grizzly Bears"),
        perm("petal", "Lotus Petal"),
        perm("vivid", "Vivid Grove", counters={"charge": 2}),
    ]

    def spent(body: dict[str, Any]) -> list[str]:
        return [
            s["permanent"]
            for s in body["plan"]
            if s["sacrifices"] or s["removes"] or s["permanent"] in ("altar", "petal")
        ]

    body = pay(client, board, "{3}{G}{U}")  # two Forests, the Island and the Ring make five
    assert body["payable"] is True and spent(body) == [], body["plan"]
    # past what the board makes without them, the Altar and the Petal pay (the Altar with the Bears)
    most = pay(client, board, "{7}{G}{U}")
    assert most["payable"] is True and set(spent(most)) >= {"altar", "petal"}, most["plan"]
