"""Request examples for the docs explorer: each works as is on the bundled card catalogue ("Try it out"
in ``/docs``), and ``tests/api/test_openapi_examples.py`` sends every one of them.

Routes attach them with ``Body(openapi_examples=...)`` (one named example each) and path or query
parameters with ``examples=[...]``.
"""

from __future__ import annotations

from typing import Any

from fastapi.openapi.models import Example


def _examples(**named: tuple[str, dict[str, Any]]) -> dict[str, Example]:
    return {key: Example(summary=summary, value=value) for key, (summary, value) in named.items()}


ELF_BOARD: dict[str, Any] = {
    "permanents": [
        {"id": "horn", "card": "Herald's Horn", "chosen": {"creature_type": "Elf"}},
        {"id": "elves", "card": "Llanowar Elves", "controlled_since_turn_began": True},
        {"id": "forest-1", "card": "Forest"},
        {"id": "forest-2", "card": "Forest", "tapped": True},
        {"id": "pool", "card": "Reflecting Pool"},
    ]
}
RICHARD_BOARD: dict[str, Any] = {
    "permanents": [
        {"id": "richard", "card": "Richard Garfield, Ph.D.", "played_as": ["Savannah Lions"]},
        {"id": "plains", "card": "Plains"},
    ]
}

MANA_COST_PARSE = _examples(
    loose=("Loose input, as Scryfall's parse-mana takes it", {"mana_cost": "2WW"}),
    hybrid=("Hybrid and Phyrexian symbols", {"mana_cost": "{2}{W/U}{G/P}"}),
)

SPELL_COST = _examples(
    heralds_horn=(
        "Herald's Horn with Elf chosen makes an Elf cost {1} less",
        {"board": ELF_BOARD, "caster": "you", "spell": {"card": "Elvish Archers"}},
    ),
    mental_magic=(
        "Savannah Lions cast as Swords to Plowshares through a Richard Garfield, Ph.D.",
        {
            "board": {"permanents": [{"id": "richard", "card": "Richard Garfield, Ph.D."}]},
            "spell": {
                "card": "Savannah Lions",
                "cast_as": {"card": "Swords to Plowshares", "via": "richard"},
            },
        },
    ),
    kicker_and_x=(
        "X chosen and an additional cost",
        {"spell": {"card": "Fireball", "x": 3, "additional_costs": ["{1}"]}},
    ),
    alternative_in_text=(
        "Force of Will's own alternative cost (CR 118.9): {0}, 1 life and a blue card",
        {"spell": {"card": "Force of Will", "method": "alternative", "which": 1}},
    ),
    granted_alternative=(
        "Omniscience grants {0} from the hand (granted_by names it)",
        {
            "board": {"permanents": [{"id": "omni", "card": "Omniscience"}]},
            "spell": {"card": "Emrakul, the Aeons Torn", "method": "alternative", "granted_by": "omni"},
        },
    ),
    granted_escape=(
        "Underworld Breach gives a graveyard card escape (CR 702.138a)",
        {
            "board": {"permanents": [{"id": "breach", "card": "Underworld Breach"}]},
            "spell": {"card": "Brainstorm", "cast_from": "graveyard", "method": "escape"},
        },
    ),
    effect_flashback=(
        "A Snapcaster Mage trigger stated as an effect gives its target flashback (CR 702.34a)",
        {
            "board": {
                "effects": [
                    {"id": "snap", "card": "Snapcaster Mage", "chosen": {"card_name": "Lightning Bolt"}}
                ]
            },
            "spell": {"card": "Lightning Bolt", "cast_from": "graveyard"},
        },
    ),
    library_permission=(
        "Bolas's Citadel: from the top of the library for life equal to the mana value",
        {
            "board": {"permanents": [{"id": "citadel", "card": "Bolas's Citadel"}]},
            "spell": {"card": "Tarmogoyf", "cast_from": "library"},
        },
    ),
    own_zone_permission=(
        "Tenacious Underdog's blitz from the graveyard, its own permission (CR 601.3)",
        {"spell": {"card": "Tenacious Underdog", "cast_from": "graveyard"}},
    ),
    suspended=(
        "A suspended card cast from exile without paying its mana cost (CR 702.62a)",
        {"spell": {"card": "Ancestral Vision", "cast_from": "exile"}},
    ),
    spree=(
        "Spree: the base cost plus each chosen mode's + cost (CR 702.172a)",
        {
            "spell": {
                "card": "Caught in the Crossfire",
                "optional_costs": [{"keyword": "spree", "which": 1}, {"keyword": "spree", "which": 2}],
            }
        },
    ),
)

SPELL_COST_BATCH = _examples(
    hand=(
        "A hand of spells on one board",
        {
            "board": ELF_BOARD,
            "spells": [{"card": "Llanowar Elves"}, {"card": "Elvish Archers"}, {"card": "Lightning Bolt"}],
        },
    )
)

BOARD_ANALYZE = _examples(
    elves=("Mana abilities and what each permanent could produce (CR 106.7)", {"board": ELF_BOARD})
)

PAYMENT_PLAN = _examples(
    cost=("Pay a cost with the board's lands and creatures", {"board": ELF_BOARD, "cost": "{1}{G}"}),
    spell=(
        "Pay a spell's total cost (Herald's Horn's reduction applies first)",
        {"board": ELF_BOARD, "spell": {"card": "Elvish Archers"}},
    ),
)

MENTAL_MAGIC_OPTIONS = _examples(
    legacy=(
        "What Savannah Lions may be cast as, in Legacy",
        {"card": "Savannah Lions", "via": "richard", "board": RICHARD_BOARD, "format": "legacy", "limit": 20},
    ),
    pool=(
        "Draft or Sealed: only the cards of a pool",
        {
            "card": "Savannah Lions",
            "via": "richard",
            "board": {"permanents": [{"id": "richard", "card": "Richard Garfield, Ph.D."}]},
            "format": "pool",
            "pool": ["Swords to Plowshares", "Savannah Lions", "Lightning Bolt"],
        },
    ),
)

HERALDS_HORN_REVEAL = _examples(
    elf=(
        "An Elf on top of the library, Elf chosen",
        {"board": ELF_BOARD, "horn": "horn", "top_card": "Llanowar Elves"},
    )
)

# The stored board also holds a Richard Garfield, Ph.D. for the played-as example.
SCENARIO_BOARD: dict[str, Any] = {
    "permanents": [*ELF_BOARD["permanents"], {"id": "richard", "card": "Richard Garfield, Ph.D."}]
}

SCENARIO = _examples(
    elves=(
        "An Elf board, stored under a name",
        {
            "name": "Elf tribal",
            "description": "Herald's Horn naming Elf",
            "owner": "user-42",
            "board": SCENARIO_BOARD,
        },
    )
)

SCENARIO_REPLACE = _examples(
    elves=(
        "The whole scenario, replaced",
        {"name": "Elf tribal", "description": "Replaced whole", "owner": "user-42", "board": SCENARIO_BOARD},
    )
)

CHOICE = _examples(elf=("Choose a creature type for Herald's Horn", {"creature_type": "Elf"}))

PLAYED_AS = _examples(
    swords=("A card chosen through a Richard Garfield, Ph.D.", {"card": "Swords to Plowshares"})
)

SCENARIO_SPELL_COST = _examples(
    archers=("An Elf on the stored board", {"caster": "you", "spell": {"card": "Elvish Archers"}})
)

DECK_ANALYZE = _examples(
    text=(
        "A Gruul decklist as pasted, in Modern, on the play",
        {
            "decklist": (
                "4 Llanowar Elves\n4 Lightning Bolt\n4 Scavenging Ooze\n4 Goblin Chainwhirler\n"
                "4 Radha, Heart of Keld\n4 Garruk's Harbinger\n4 Bloodstone Goblin\n4 Thrashing Brontodon\n"
                "4 Shivan Dragon\n12 Forest\n12 Mountain\n\nSideboard\n2 Blood Moon\n"
            ),
            "format": "modern",
            "play": "first",
        },
    ),
    cards=(
        "The same as JSON cards",
        {"cards": [{"card": "Llanowar Elves", "count": 4}, {"card": "Forest", "count": 17}], "play": "draw"},
    ),
    moxfield=(
        "Moxfield text export: category headers, blank lines are spacing",
        {
            "decklist": (
                "Creatures (8)\n4 Goblin Guide\n4 Monastery Swiftspear\n\nInstants (8)\n4 Lightning Bolt\n"
                "4 Fire // Ice\n\nLands (20)\n20 Mountain\n\nSideboard (2)\n2 Smash to Smithereens\n"
            ),
            "format": "Modern",
        },
    ),
    archidekt=(
        "Archidekt export: [Category], *F*, *CMDR*, ^Tag^, a maybeboard category",
        {
            "decklist": (
                "1x Atraxa, Praetors' Voice (2x2) 190 *CMDR* [Commander{top}]\n1x Sol Ring (cmr) 472 [Ramp]\n"
                "1x Arcane Signet *F* [Ramp] ^Have,#37d67a^\n1x Cyclonic Rift [Maybeboard{noDeck}{noPrice}]\n"
                "1x Command Tower [Land]\n"
            ),
            "format": "EDH",
        },
    ),
    arena=(
        "MTG Arena export: About / Name, Companion, Deck, Sideboard, set codes",
        {
            "decklist": (
                "About\nName Burn\n\nCompanion\n1 Lurrus of the Dream-Den (IKO) 226\n\nDeck\n"
                "4 Lightning Bolt (2XM) 141\n20 Mountain (ZNR) 384\n\nSideboard\n2 Abrade (HOU) 83\n"
            )
        },
    ),
    mtgo=(
        "MTGO .txt (MTGGoldfish, Moxfield MTGO export): a blank line before the sideboard, Fire/Ice",
        {"decklist": "4 Fire/Ice\n4 Lightning Bolt\n20 Mountain\n\n2 Blood Moon\n"},
    ),
    mtgo_dek=(
        "MTGO .dek XML",
        {
            "decklist": (
                '<?xml version="1.0" encoding="utf-8"?>\n<Deck>\n'
                '  <Cards CatID="1" Quantity="4" Sideboard="false" Name="Lightning Bolt" />\n'
                '  <Cards CatID="2" Quantity="20" Sideboard="false" Name="Mountain" />\n'
                '  <Cards CatID="3" Quantity="2" Sideboard="true" Name="Blood Moon" />\n</Deck>\n'
            )
        },
    ),
    tappedout=(
        "TappedOut: 1x lines, *CMDR*, Sideboard:",
        {
            "decklist": (
                "1x Atraxa, Praetors' Voice *CMDR*\n1x Sol Ring *f*\n1x Command Tower\n\nSideboard:\n"
                "1x Pyroblast\n"
            )
        },
    ),
    deckstats=(
        "deckstats.net: //Main, [SET#num] before the name, # !Commander, //Maybeboard",
        {
            "decklist": (
                "//Main\n1 [CMR#472] Sol Ring\n1 [2X2#190] Atraxa, Praetors' Voice # !Commander\n"
                "1 Command Tower\n//Sideboard\nSB: 1 [M10] Pyroblast\n//Maybeboard\n1 Cyclonic Rift\n"
            )
        },
    ),
)

DECK_MANABASE = _examples(
    two_colors=(
        "A Boros deck short of white sources, with Sacred Foundry as a candidate",
        {
            "decklist": (
                "4 Monastery Swiftspear\n4 Goblin Guide\n4 Lightning Bolt\n4 Lightning Helix\n4 Boros Charm\n"
                "4 Skullcrack\n4 Lava Spike\n4 Rift Bolt\n4 Searing Blaze\n4 Eidolon of the Great Revel\n"
                "16 Mountain\n4 Plains\n"
            ),
            "candidates": ["Sacred Foundry", "Inspiring Vantage"],
            "format": "modern",
        },
    ),
    some_spells=(
        "Only some spells to bring to their threshold, at most 4 swaps",
        {
            "decklist": "4 Lightning Helix\n36 Lava Spike\n18 Mountain\n2 Plains\n",
            "spells": ["Lightning Helix"],
            "max_changes": 4,
        },
    ),
)
