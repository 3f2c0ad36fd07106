"""The ``"ways"`` template registry: the sentences about casting that are not keyword lines, in the order
they are tried (registration happens here, at import; see ``templates``).

A card's own alternative costs (CR 118.9: "You may pay 1 life and exile a blue card from your hand rather
than pay this spell's mana cost.") and its permissions to be cast from another zone (CR 601.3); what a
permanent or an effect grants the spells its controller casts (CR 601.2b, 601.3, 118.9, 613): permissions
to cast from a zone, alternative costs, escape (702.138a) and flashback (702.34a) and their costs (601.2f),
and keyword costs reduced (118.7a). Patterns are anchored and bounded; sentences longer than
``_MAX_SENTENCE`` characters are refused unread.
"""

from __future__ import annotations

from typing import Final

from app.rules.text.templates import registry

WAYS = registry("ways")
ALL_ZONES: Final = ("hand", "graveyard", "exile", "library", "command")
MAX_SENTENCE: Final = 400
_ABILITY_WORD: Final = r"(?:[a-z' -]{1,30} — )?"
_COND: Final = r"(?:(?P<cond>(?:if|as long as) [^,]{1,120}), )?"

# -- a card's own text ------------------------------------------------------------------------------------

OWN_ALTERNATIVE = WAYS.add(
    "own-alternative-cost",
    rf"^{_ABILITY_WORD}{_COND}you may (?P<cost>[^.]{{1,200}}?) rather than pay "
    r"(?:this spell's|~'s) mana cost(?: (?P<cond2>if [^.]{1,120}))?\.?$",
    rule="118.9",
    examples=(
        "you may pay 1 life and exile a blue card from your hand rather than pay this spell's mana cost.",
        "you may return an island you control to its owner's hand rather than pay this spell's mana cost.",
        "if you control a swamp, you may pay 4 life rather than pay this spell's mana cost.",
        "you may sacrifice two mountains rather than pay this spell's mana cost.",
        "you may pay {b} rather than pay this spell's mana cost if there are thirteen or more creatures on "
        "the battlefield.",
    ),
    yields="a Way (method alternative): the cost paid rather than the mana cost, and its other costs",
)
OWN_ALTERNATIVE_FIRST = WAYS.add(
    "own-alternative-cost-rather-first",
    r"^(?:(?P<cond>(?:if|as long as) [^,]{1,120}), )?rather than pay this spell's mana cost, you may "
    r"(?P<cost>[^.]{1,200})\.?$",
    rule="118.9",
    examples=(
        "if you control a forest, rather than pay this spell's mana cost, you may have each other player "
        "gain 6 life.",
    ),
    yields="a Way (method alternative), as own-alternative-cost",
)
OWN_WITHOUT_PAYING = WAYS.add(
    "own-without-paying",
    r"^(?:(?P<cond>(?:if|as long as) [^,]{1,160}), )?you may cast (?:this spell|~) without paying its mana "
    r"cost\.?$",
    rule="118.9",
    examples=(
        "if an opponent controls an island and you control a mountain, you may cast this spell without "
        "paying its mana cost.",
    ),
    yields="a Way (method alternative) of {0}",
)
OWN_ZONE_USING = WAYS.add(
    "own-zone-using-keyword",
    r"^you may cast (?:~|this card) from your (?P<zone>graveyard|exile) "
    r"using its (?P<kw>[a-z -]{1,30}) ability\.?$",
    rule="601.3",
    examples=(
        "you may cast ~ from your graveyard using its mutate ability.",
        "you may cast ~ from your graveyard using its blitz ability.",
    ),
    yields="an OwnPermission: the keyword's way applies from that zone too",
)
OWN_ZONE_PAYING = WAYS.add(
    "own-zone-paying",
    rf"^{_COND}you may cast (?:~|this card) from your (?P<zone>graveyard|exile) "
    rf"by (?P<cost>[^.]{{1,200}}?) rather than "
    r"paying its mana cost\.?$",
    rule="601.3",
    examples=(
        "you may cast ~ from your graveyard by paying {2}{w} rather than paying its mana cost.",
        "as long as you control a giant, you may cast ~ from your graveyard by paying {u} rather than paying "
        "its mana cost.",
        "you may cast ~ from your graveyard by paying {b}{b} and sacrificing two creatures rather than "
        "paying its mana cost.",
    ),
    yields="an OwnPermission with an alternative cost from that zone",
)
OWN_ZONE_ADDITIONAL = WAYS.add(
    "own-zone-with-additional-cost",
    r"^(?:[a-z' -]{1,30} — )?you may cast (?:~|this card) from your (?P<zone>graveyard|exile) "
    r"by (?P<cost>[^.]{1,200}?) in "
    r"addition to paying its other costs\.?$",
    rule="601.3",
    examples=(
        "you may cast ~ from your graveyard by paying 3 life and discarding a card in addition to paying its "
        "other costs.",
        "you may cast ~ from your graveyard by discarding two cards in addition to paying its other costs.",
        "you may cast this card from your graveyard by discarding a card in addition to paying its other "
        "costs.",
    ),
    yields="an OwnPermission: the normal costs plus these, from that zone",
)
OWN_ZONE = WAYS.add(
    "own-zone",
    r"^(?:(?P<cond1>(?:if|as long as) [^,]{1,120}), )?you may cast (?:~|this card) from (?:your )?"
    r"(?P<zone>graveyard|exile)"
    r"(?P<both> or from exile)?(?: (?P<cond>as long as [^.]{1,120}|if [^.]{1,120}))?\.?$",
    rule="601.3",
    examples=(
        "you may cast ~ from your graveyard as long as you control a zombie.",
        "you may cast ~ from your graveyard.",
        "you may cast ~ from exile.",
        "you may cast ~ from your graveyard or from exile.",
    ),
    yields="an OwnPermission: the normal costs, from that zone",
)

# -- what a permanent or an effect grants -------------------------------------------------------------------

GRANT_FROM_HAND_FREE = WAYS.add(
    "grant-from-hand-without-paying",
    r"^(?:until end of turn, )?you may cast (?P<what>[a-z ,0-9]{0,80}?)spells from your hand without paying "
    r"their mana costs\.?$",
    rule="118.9",
    examples=(
        "you may cast spells from your hand without paying their mana costs.",
        "until end of turn, you may cast spells from your hand without paying their mana costs.",
    ),
    yields="a Permission (alternative {0}) for spells cast from the hand",
)
GRANT_FREE = WAYS.add(
    "grant-without-paying",
    r"^(?P<who>you|any player) may cast (?P<what>[a-z ,0-9]{0,80}?)spells"
    r"(?: with mana value (?P<n>\d{1,2}) or less)? without paying their mana costs"
    r"(?: and as though they had flash)?\.?$",
    rule="118.9",
    examples=(
        "you may cast dragon spells without paying their mana costs.",
        "any player may cast creature spells with mana value 3 or less without paying their mana costs "
        "and as though they had flash.",
    ),
    yields="a Permission (alternative {0}) for the spells described, from the hand",
)
GRANT_PAY_RATHER = WAYS.add(
    "grant-pay-rather-than-mana-cost",
    r"^(?P<once>once each turn, )?you may pay (?P<cost>(?:\{[^{}]{1,5}\}){1,10}) rather than pay the "
    r"mana cost for (?P<what>[a-z ,0-9]{0,80}?)spells? (?:that )?you cast"
    r"(?P<hand> from your hand| from exile)?\.?$",
    rule="118.9",
    examples=(
        "you may pay {w}{u}{b}{r}{g} rather than pay the mana cost for spells that you cast.",
        "you may pay {0} rather than pay the mana cost for zombie creature spells you cast.",
        "once each turn, you may pay {0} rather than pay the mana cost for a colorless spell that you cast "
        "from your hand.",
    ),
    yields="a Permission (alternative cost) for the spells described, from the hand",
)
GRANT_LIFE_ALTERNATIVE = WAYS.add(
    "grant-life-alternative",
    r"^(?P<once>once during each of your turns, )?you may cast (?P<what>[a-z ,0-9]{1,80}?) "
    r"(?:from your hand )?by paying life equal to its mana value rather than paying its mana cost\.?$",
    rule="118.9",
    examples=(
        "once during each of your turns, you may cast a spell from your hand by paying life equal to its "
        "mana value rather than paying its mana cost.",
        "once during each of your turns, you may cast an enchantment spell by paying life equal to its mana "
        "value rather than paying its mana cost.",
    ),
    yields="a Permission (alternative): life equal to the mana value rather than the mana cost",
)
GRANT_ZONE = WAYS.add(
    "grant-cast-from-zone",
    r"^(?:as long as ~ is on the battlefield, )?(?P<turn>during your turn, )?"
    r"(?P<when>until end of turn, |once during each of your turns, |during each of your turns, "
    r"|once each turn, )?you may (?:play (?:lands|a land) and )?cast "
    r"(?!this card )(?P<what>[a-z ,0-9-]{1,120}?) from "
    r"(?P<zone>your graveyard|the top of your library)"
    r"(?: by (?P<extra>[^.]{1,120}?) in addition to (?:paying )?(?:its|their) other costs)?\.?$",
    rule="601.3",
    examples=(
        "until end of turn, you may play lands and cast spells from your graveyard.",
        "during each of your turns, you may cast one permanent spell with mana value 2 or less from your "
        "graveyard.",
        "once during each of your turns, you may cast an instant or sorcery spell from your graveyard.",
        "you may play lands and cast spells from the top of your library.",
        "you may cast creature spells from the top of your library.",
        "during each of your turns, you may play a land and cast a permanent spell of each permanent type "
        "from your graveyard.",
        "once during each of your turns, you may cast an instant or sorcery spell from your graveyard by "
        "sacrificing a creature in addition to paying its other costs.",
        "once each turn, you may cast an instant or sorcery spell from the top of your library.",
        "you may cast creature spells of the chosen type from the top of your library.",
    ),
    yields="a Permission (zone): the spells described may be cast from that zone for their costs (and the "
    "extra costs it names)",
)
GRANT_LIFE = WAYS.add(
    "grant-life-rather-than-mana-cost",
    r"^if you cast a spell this way, (?:you )?pay life equal to (?:its|that spell's) mana value rather than "
    r"pay(?:ing)? its mana cost\.?$",
    rule="118.9",
    examples=(
        "if you cast a spell this way, pay life equal to its mana value rather than pay its mana cost.",
    ),
    yields="the permission before it costs life equal to the mana value rather than the mana cost",
)
GRANT_ESCAPE = WAYS.add(
    "grant-escape",
    r"^each (?P<what>[a-z ,]{1,60}?) card in your graveyard has escape\.?$",
    rule="702.138a",
    examples=("each nonland card in your graveyard has escape.",),
    yields="a Permission (keyword escape) from the graveyard; its cost is the next sentence",
)
GRANT_FLASHBACK = WAYS.add(
    "grant-flashback",
    r"^(?P<turn>as long as it's your turn, |during your turn, )?each (?P<what>[a-z ,-]{1,60}?) card in your "
    r"graveyard (?:gains|has) flashback(?: until end of turn)?\.?$",
    rule="702.34a",
    examples=(
        "each instant and sorcery card in your graveyard gains flashback until end of turn.",
        "as long as it's your turn, each instant and sorcery card in your graveyard has flashback.",
    ),
    yields="a Permission (keyword flashback) from the graveyard; its cost is the next sentence",
)
GRANT_FLASHBACK_TARGET = WAYS.add(
    "grant-flashback-to-target",
    r"^when(?:ever)? ~ enters(?: the battlefield)?, (?:up to one )?target (?P<what>[a-z ,]{1,60}?) "
    r"card in your graveyard gains flashback until end of turn\.?$",
    rule="702.34a",
    examples=(
        "when ~ enters, target instant or sorcery card in your graveyard gains flashback until end of turn.",
    ),
    yields="a Permission (keyword flashback) for the card the trigger targeted (chosen card_name)",
)
GRANT_OPTIONAL = WAYS.add(
    "granted-optional-cost",
    r"^(?:[a-z' -]{1,30} — )?(?:(?P<first>the first )|each )?(?P<what>[a-z ,0-9-]{0,80}?)spells? you cast"
    r"(?P<each> each turn)? "
    r"(?:has|have) (?P<kw>replicate|conspire|casualty|offspring)"
    r"(?: (?P<cost>(?:\{[^{}]{1,5}\}){1,10}|\d{1,2}))?\.?$",
    rule="601.2b",
    examples=(
        "each instant and sorcery spell you cast has replicate.",
        "each sliver spell you cast has replicate.",
        "the first instant or sorcery spell you cast each turn has casualty 2.",
        "creature spells you cast have offspring {2}.",
        "science teacher — each saga spell you cast has replicate.",
    ),
    yields="a Permission (kind optional): an optional additional cost the spells have as their own (613.1f)",
)
KEYWORD_COST_IS_MANA_COST = WAYS.add(
    "granted-keyword-cost",
    r"^the (?P<kw>escape|flashback|replicate) cost is equal to (?:its|the card's) mana cost"
    r"(?: plus (?P<plus>[^.]{1,120}))?\.?$",
    rule="601.2f",
    examples=(
        "the flashback cost is equal to its mana cost.",
        "the escape cost is equal to the card's mana cost plus exile three other cards from your graveyard.",
        "the replicate cost is equal to its mana cost.",
    ),
    yields="the cost of the keyword granted by the sentence before",
)

KEYWORD_COST_LESS = WAYS.add(
    "keyword-costs-cost-less",
    r"^(?P<kw>buyback|kicker|flashback|entwine|multikicker|replicate) costs cost \{(?P<n>\d{1,2})\} less\.?$",
    rule="118.7a",
    examples=("buyback costs cost {2} less.",),
    yields="a KeywordCostChange: that optional cost reduced by {N} each time it is paid",
)

OWN_TEMPLATES: Final = frozenset(
    t.name
    for t in (
        OWN_ALTERNATIVE,
        OWN_ALTERNATIVE_FIRST,
        OWN_WITHOUT_PAYING,
        OWN_ZONE_USING,
        OWN_ZONE_PAYING,
        OWN_ZONE_ADDITIONAL,
        OWN_ZONE,
    )
)
