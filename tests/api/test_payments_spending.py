"""Spending rules printed on the spell (CR 106.6, 601.2h) and "as though" in its wordings (CR 609.4b), paid
over HTTP with the bundled catalogue: plans never spend forbidden mana, and ``short`` counts it. Each
expectation is worked out by hand from the quoted sentence."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

TREASURE = {
    "name": "Treasure",
    "type_line": "Token Artifact — Treasure",
    "oracle_text": "{T}, Sacrifice this artifact: Add one mana of any color.",
}


def lands(name: str, n: int, prefix: str | None = None, **kw: Any) -> list[dict[str, Any]]:
    return [{"id": f"{prefix or name.lower()}-{i}", "card": name, **kw} for i in range(n)]


def pay(client: TestClient, permanents: list[dict[str, Any]], **body: Any) -> Any:
    r = client.post("/v1/payments/plan", json={"board": {"permanents": permanents}, **body})
    assert r.status_code == 200, r.text
    return r.json()


def paid_by(body: Any) -> list[str]:
    return sorted(s["permanent"] for s in body["plan"] if s.get("permanent"))


# -- "Spend only [color] mana on X" -----------------------------------------------------------------------


def test_consume_spirit_pays_x_with_black_mana_only(client: TestClient) -> None:
    """Consume Spirit {X}{1}{B}: "Spend only black mana on X." With X=3 the total is {3}{1}{B}: four black
    mana (three for X, one for {B}) and one of any type. Three Swamps and three Forests give only three
    black mana: one {B} is missing, though six mana are there."""
    spell = {"card": "Consume Spirit", "x": 3}
    body = pay(client, lands("Swamp", 3) + lands("Forest", 3), spell=spell)
    assert body["payable"] is False and body["short"] == "{B}"
    body = pay(client, lands("Swamp", 4) + lands("Forest", 1), spell=spell)
    assert body["payable"] is True
    assert paid_by(body) == ["forest-0", "swamp-0", "swamp-1", "swamp-2", "swamp-3"]
    assert sum(1 for p in body["payments"] if p["mana"] == "B") == 4


def test_crimson_hellkites_x_is_its_abilitys_not_the_spells(client: TestClient) -> None:
    """Crimson Hellkite {6}{R}{R}{R}: "{X}, {T}: Crimson Hellkite deals X damage to target creature. Spend
    only red mana on X." The X is the activated ability's: casting the Hellkite is paid with any mana, so
    three Mountains and six Forests pay it."""
    board = lands("Mountain", 3) + lands("Forest", 6)
    assert pay(client, board, spell={"card": "Crimson Hellkite"})["payable"] is True


def test_emblazoned_golem_colored_x_with_a_warning(client: TestClient) -> None:
    """Emblazoned Golem {2}: "Kicker {X}", "Spend only colored mana on X. No more than one mana of each color
    may be spent this way." Kicked with X=2 the total is {4}: four Wastes leave two colored mana short;
    the second sentence (one of each color) is not applied and is said."""
    spell = {"card": "Emblazoned Golem", "x": 2, "optional_costs": [{"keyword": "kicker"}]}
    body = pay(client, lands("Wastes", 4), spell=spell)
    assert body["payable"] is False and body["short"] == "{W}{W}"
    body = pay(client, lands("Wastes", 2) + lands("Forest", 1) + lands("Island", 1), spell=spell)
    assert body["payable"] is True
    assert any("one mana of each color" in w["text"] for w in body["warnings"])


def test_soul_burn_x_takes_black_or_red(client: TestClient) -> None:
    """Soul Burn {X}{2}{B}: "Spend only black and/or red mana on X." X=2: a Swamp for {B}, a Swamp and a
    Mountain for X, two Forests for {2}."""
    board = lands("Swamp", 2) + lands("Mountain", 1) + lands("Forest", 2)
    body = pay(client, board, spell={"card": "Soul Burn", "x": 2})
    assert body["payable"] is True
    no_red = lands("Swamp", 1) + lands("Forest", 4)
    assert pay(client, no_red, spell={"card": "Soul Burn", "x": 2})["short"] == "{B}{B}"


def test_the_x_rule_without_x_changes_nothing(client: TestClient) -> None:
    """Consume Spirit with X=0: "Spend only black mana on X" spends nothing; {1}{B} is paid by a Swamp and
    a Forest."""
    body = pay(client, lands("Swamp", 1) + lands("Forest", 1), spell={"card": "Consume Spirit", "x": 0})
    assert body["payable"] is True


def test_a_bare_cost_has_no_spell_rules(client: TestClient) -> None:
    """Without `spell` the cost is a bare cost: three Forests pay {3} whatever a card would say."""
    assert pay(client, lands("Forest", 3), cost="{3}")["payable"] is True


# -- "Spend only mana produced by ..." ---------------------------------------------------------------------


def test_imperiosaur_only_basic_lands(client: TestClient) -> None:
    """Imperiosaur {2}{G}{G}: "Spend only mana produced by basic lands to cast this spell." Llanowar Elves'
    {G} may not be spent: three Forests leave one mana short, of any type."""
    board = [*lands("Forest", 3), {"id": "elves", "card": "Llanowar Elves"}]
    body = pay(client, board, spell={"card": "Imperiosaur"})
    assert body["payable"] is False and body["short"] == "{1}"
    body = pay(client, lands("Forest", 4), spell={"card": "Imperiosaur"})
    assert body["payable"] is True


def test_myr_superion_only_creatures(client: TestClient) -> None:
    """Myr Superion {2}: "Spend only mana produced by creatures to cast this spell." Two Llanowar Elves pay
    it; two Forests do not; the mana already in the pool is of unknown origin and is not used."""
    elves = [{"id": f"elf-{i}", "card": "Llanowar Elves"} for i in range(2)]
    body = pay(client, elves + lands("Forest", 2), spell={"card": "Myr Superion"})
    assert body["payable"] is True and paid_by(body) == ["elf-0", "elf-1"]
    body = pay(client, lands("Forest", 2), spell={"card": "Myr Superion"})
    assert body["payable"] is False and body["short"] == "{2}"
    r = client.post(
        "/v1/payments/plan",
        json={"board": {"permanents": [], "mana_pool": {"you": "{G}{G}"}}, "spell": {"card": "Myr Superion"}},
    )
    body = r.json()
    assert body["payable"] is False and any("pool" in w["message"] for w in body["warnings"])


def test_security_rhox_treasures_only_for_its_alternative_cost(client: TestClient) -> None:
    """Security Rhox {4}{R}{G}: "You may pay {R}{G} rather than pay this spell's mana cost." and "Spend only
    mana produced by Treasures to cast it this way." A Mountain and a Forest do not pay {R}{G} that way;
    two Treasures do; the normal way takes any mana."""
    alt = {"card": "Security Rhox", "method": "alternative"}
    body = pay(client, lands("Mountain", 1) + lands("Forest", 1), spell=alt)
    assert body["payable"] is False and body["short"] == "{R}{G}"
    treasures = [{"id": f"t{i}", "card": TREASURE} for i in range(2)]
    body = pay(client, treasures, spell=alt)
    assert body["payable"] is True and paid_by(body) == ["t0", "t1"]
    normal = lands("Mountain", 3) + lands("Forest", 3)
    assert pay(client, normal, spell={"card": "Security Rhox"})["payable"] is True


# -- "as though" --------------------------------------------------------------------------------------------


def test_mycosynth_lattice_reaches_every_player(client: TestClient) -> None:
    """Mycosynth Lattice (the opponent's): "Players may spend mana as though it were mana of any color." Two
    Forests of yours pay {U}{U}."""
    board = [*lands("Forest", 2), {"id": "lattice", "card": "Mycosynth Lattice", "controller": "opponent"}]
    assert pay(client, board, cost="{U}{U}")["payable"] is True
    assert pay(client, lands("Forest", 2), cost="{U}{U}")["payable"] is False


def test_sunglasses_of_urza_white_as_red(client: TestClient) -> None:
    """Sunglasses of Urza: "You may spend white mana as though it were red mana." A Plains pays {R}, not
    {G}."""
    board = [*lands("Plains", 1), {"id": "glasses", "card": "Sunglasses of Urza"}]
    assert pay(client, board, cost="{R}")["payable"] is True
    body = pay(client, board, cost="{G}")
    assert body["payable"] is False and body["short"] == "{G}"


def test_vizier_of_the_menagerie_any_type_for_creature_spells(client: TestClient) -> None:
    """Vizier of the Menagerie: "You may spend mana as though it were mana of any type to cast creature
    spells." Four Forests pay Thought-Knot Seer's {3}{C} ({C} is a type, CR 609.4b), not Wrath of God."""
    board = [*lands("Forest", 4), {"id": "vizier", "card": "Vizier of the Menagerie"}]
    assert pay(client, board, spell={"card": "Thought-Knot Seer"})["payable"] is True
    assert pay(client, board, spell={"card": "Wrath of God"})["payable"] is False


def test_oath_of_nissa_planeswalker_spells(client: TestClient) -> None:
    """Oath of Nissa: "You may spend mana as though it were mana of any color to cast planeswalker
    spells." Three Forests pay Jace Beleren's {1}{U}{U}, not Counterspell's {U}{U}."""
    board = [*lands("Forest", 3), {"id": "oath", "card": "Oath of Nissa"}]
    assert pay(client, board, spell={"card": "Jace Beleren"})["payable"] is True
    assert pay(client, board, spell={"card": "Counterspell"})["payable"] is False


def test_celestial_dawn_other_mana_only_as_colorless(client: TestClient) -> None:
    """Celestial Dawn: "You may spend white mana as though it were mana of any color. You may spend other
    mana only as though it were colorless mana." Sol Ring's {C}{C} pays no colored symbol; with a Plains
    the {W} pays a {G}."""
    board = [{"id": "dawn", "card": "Celestial Dawn"}, {"id": "ring", "card": "Sol Ring"}]
    body = pay(client, board, cost="{G}")
    assert body["payable"] is False
    board.append({"id": "plains", "card": "Plains"})
    body = pay(client, board, cost="{2}{G}")
    assert body["payable"] is True
    assert {p["symbol"]: p["mana"] for p in body["payments"]}["{G}"] == "W"


# -- Class levels grant only their own level's abilities (CR 716.2a) ---------------------------------------


def test_sorcerer_class_grants_mana_only_from_level_2(client: TestClient) -> None:
    """Sorcerer Class: "{U}{R}: Level 2" then "Creatures you control have "{T}: Add {U} or {R}. Spend this
    mana only to cast an instant or sorcery spell or to gain a Class level."" At level 1 the Bears have no
    mana ability; at level 2 they have it."""

    def bears_abilities(level: int) -> list[Any]:
        board = {
            "permanents": [
                {"id": "sc", "card": "Sorcerer Class", "class_level": level},
                {"id": "bears", "card": "Grizzly Bears"},
            ]
        }
        r = client.post("/v1/boards/analyze", json={"board": board})
        assert r.status_code == 200, r.text
        return next(p for p in r.json()["permanents"] if p["id"] == "bears")["abilities"]

    assert bears_abilities(1) == []
    assert [a["is_mana_ability"] for a in bears_abilities(2)] == [True]
