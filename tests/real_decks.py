"""Ten real decks as their sites export them (format, the pasted text), for tests/api/test_real_decks.py and
bench/deck_advisor.py: Modern (MTG Arena export with a companion, MTGO .txt), Pioneer (MTGGoldfish .txt),
Pauper (Moxfield with categories), Legacy (MTGO .dek), Commander (MTGO .txt; MTG Arena-style headers),
Limited (MTG Arena), and two more Modern lists."""

from __future__ import annotations

from tests.api.test_decks import LIMITED, MODERN, commander_list

RAKDOS_ARENA = """Companion
1 Lurrus of the Dream-Den (IKO) 226

Deck
4 Ragavan, Nimble Pilferer (MH2) 138
4 Dragon's Rage Channeler (MH2) 121
4 Unholy Heat (MH2) 145
4 Lightning Bolt (2X2) 117
4 Fatal Push (2XM) 94
4 Kolaghan's Command (2X2) 200
4 Thoughtseize (2XM) 107
4 Bloodtithe Harvester (VOW) 232
4 Young Pyromancer (M14) 163
4 Tormod's Crypt (M21) 241
4 Blightstep Pathway (KHM) 252
4 Blood Crypt (RNA) 245
4 Bloodstained Mire (KTK) 230
4 Mountain (ZNR) 384
4 Swamp (ZNR) 377

Sideboard
1 Lurrus of the Dream-Den (IKO) 226
3 Terminate (ARB) 87
3 Dreadbore (RTR) 157
4 Kroxa, Titan of Death's Hunger (THB) 221
2 Sulfurous Springs (DMU) 256
2 Dragonskull Summit (M20) 252
"""

BURN_MTGO = """4 Monastery Swiftspear
4 Goblin Guide
4 Eidolon of the Great Revel
4 Lightning Bolt
4 Rift Bolt
4 Lava Spike
4 Skullcrack
4 Searing Blaze
4 Boros Charm
4 Lightning Helix
4 Inspiring Vantage
4 Sacred Foundry
2 Sunbaked Canyon
10 Mountain

3 Smash to Smithereens
4 Path to Exile
2 Rest in Peace
2 Deflecting Palm
4 Kor Firewalker
"""

PIONEER_GOLDFISH = """4 Llanowar Elves
4 Elvish Mystic
4 Pelt Collector
4 Steel Leaf Champion
4 Old-Growth Troll
4 Kazandu Mammoth
4 Lovestruck Beast
4 Ranger Class
2 Rhonas the Indomitable
2 Esika's Chariot
4 Snakeskin Veil
16 Forest
4 Castle Garenbrig

3 Thrashing Brontodon
4 Cavalier of Thorns
4 Ram Through
4 Scavenging Ooze
"""

PAUPER_MOXFIELD = """Creatures (12)
4 Monastery Swiftspear
4 Kessig Flamebreather
4 Burning-Tree Emissary

Instants (20)
4 Lightning Bolt
4 Chain Lightning
4 Fireblast
4 Skred
4 Lava Dart

Sorceries (10)
4 Rift Bolt
4 Lava Spike
2 Light Up the Stage

Lands (18)
16 Mountain
2 Forgotten Cave

Sideboard (15)
4 Electrickery
4 Flame Slash
3 Smash to Smithereens
4 Gut Shot
"""

LEGACY_DEK = """<?xml version="1.0" encoding="utf-8"?>
<Deck xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
  <NetDeckID>0</NetDeckID>
  <PreconstructedDeckID>0</PreconstructedDeckID>
  <Cards CatID="1001" Quantity="4" Sideboard="false" Name="Delver of Secrets" Annotation="0" />
  <Cards CatID="1002" Quantity="4" Sideboard="false" Name="Dragon's Rage Channeler" Annotation="0" />
  <Cards CatID="1003" Quantity="4" Sideboard="false" Name="Murktide Regent" Annotation="0" />
  <Cards CatID="1004" Quantity="4" Sideboard="false" Name="Brainstorm" Annotation="0" />
  <Cards CatID="1005" Quantity="4" Sideboard="false" Name="Ponder" Annotation="0" />
  <Cards CatID="1006" Quantity="4" Sideboard="false" Name="Force of Will" Annotation="0" />
  <Cards CatID="1007" Quantity="4" Sideboard="false" Name="Daze" Annotation="0" />
  <Cards CatID="1008" Quantity="4" Sideboard="false" Name="Lightning Bolt" Annotation="0" />
  <Cards CatID="1009" Quantity="4" Sideboard="false" Name="Expressive Iteration" Annotation="0" />
  <Cards CatID="1010" Quantity="4" Sideboard="false" Name="Vapor Snag" Annotation="0" />
  <Cards CatID="1011" Quantity="4" Sideboard="false" Name="Wasteland" Annotation="0" />
  <Cards CatID="1012" Quantity="4" Sideboard="false" Name="Volcanic Island" Annotation="0" />
  <Cards CatID="1013" Quantity="4" Sideboard="false" Name="Scalding Tarn" Annotation="0" />
  <Cards CatID="1014" Quantity="4" Sideboard="false" Name="Polluted Delta" Annotation="0" />
  <Cards CatID="1015" Quantity="3" Sideboard="false" Name="Island" Annotation="0" />
  <Cards CatID="1016" Quantity="1" Sideboard="false" Name="Mountain" Annotation="0" />
  <Cards CatID="2001" Quantity="4" Sideboard="true" Name="Red Elemental Blast" Annotation="0" />
  <Cards CatID="2002" Quantity="3" Sideboard="true" Name="Pyroblast" Annotation="0" />
  <Cards CatID="2003" Quantity="4" Sideboard="true" Name="Mystical Dispute" Annotation="0" />
  <Cards CatID="2004" Quantity="4" Sideboard="true" Name="Relic of Progenitus" Annotation="0" />
</Deck>
"""

MEREN_MTGO = """1 Sol Ring
1 Llanowar Elves
1 Elvish Mystic
1 Sakura-Tribe Elder
1 Eternal Witness
1 Viscera Seer
1 Carrion Feeder
1 Spore Frog
1 Golgari Signet
1 Cultivate
1 Kodama's Reach
1 Rampant Growth
1 Farseek
1 Demonic Tutor
1 Beast Within
1 Putrefy
1 Assassin's Trophy
1 Victimize
1 Living Death
1 Grim Harvest
1 Reclamation Sage
1 Ravenous Chupacabra
1 Command Tower
1 Overgrown Tomb
1 Woodland Cemetery
1 Llanowar Wastes
1 Golgari Rot Farm
1 Evolving Wilds
36 Forest
35 Swamp

1 Meren of Clan Nel Toth
"""

DECKS: dict[str, tuple[str, str]] = {
    "Modern Rakdos (MTG Arena, companion)": ("modern", RAKDOS_ARENA),
    "Modern Boros Burn (MTGO .txt)": ("modern", BURN_MTGO),
    "Modern Naya Zoo (plain text)": ("modern", MODERN),
    "Pioneer Mono-Green (MTGGoldfish)": ("pioneer", PIONEER_GOLDFISH),
    "Pauper Mono-Red (Moxfield)": ("pauper", PAUPER_MOXFIELD),
    "Legacy Izzet Delver (MTGO .dek)": ("legacy", LEGACY_DEK),
    "Commander Meren (MTGO .txt)": ("commander", MEREN_MTGO),
    "Commander Rin and Seri (headers)": ("commander", commander_list()),
    "Limited R/G (MTG Arena)": ("limited", LIMITED),
    "Modern Burn, 2 colors (plain)": ("modern", "4 Lightning Helix\n31 Lava Spike\n21 Mountain\n4 Plains\n"),
}
"""Name -> (format, or "limited" for none, the text as exported)."""
