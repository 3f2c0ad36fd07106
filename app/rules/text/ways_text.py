"""Casting sentences that are not keyword lines, read through the ``"ways"`` template registry.

Two readers:

- ``read_own(name, text)``: a card's own alternative costs written in its text ("You may pay 1 life and
  exile a blue card from your hand rather than pay this spell's mana cost.", CR 118.9, 601.2b) and its own
  permissions to be cast from another zone ("You may cast ~ from your graveyard using its blitz ability.",
  CR 601.3).
- ``read_granted(name, text)``: what a permanent or a lasting effect grants to the spells its controller
  casts: permissions to cast from a zone, alternative costs, escape and flashback (CR 601.2b, 118.9, 613).

Sentences are prepared as every template reader prepares them: reminder text removed, the card's own name
replaced by ``~``, lower-cased. A sentence that speaks of casting and that no template reads is returned as
not read, so the answer can warn (nothing silent). Patterns are anchored and bounded, sentences longer than
``_MAX_SENTENCE`` characters are refused unread, so no text makes a pattern backtrack for long.

The readers are split by what they hold, and this module re-exports their names as before:
the registered templates (``ways_templates``: CR 118.9, 601.3, 601.2b, 601.2f, 702.34a, 702.138a,
118.7a), the sentences and cost phrases (``cast_sentences``: CR 207.2, 118.1, 119.4), a card's own
sentences (``own_text``: CR 118.9, 601.3), the spells a permission describes (``spell_kinds``: CR 205,
202.3) and what is granted (``granted_text``: CR 601.2b, 601.3, 118.9, 613).
"""

from __future__ import annotations

from app.rules.text.cast_sentences import Sentence as Sentence
from app.rules.text.cast_sentences import cost_phrase, sentences
from app.rules.text.granted_text import read_granted
from app.rules.text.own_text import OwnText, read_own
from app.rules.text.spell_kinds import spell_kind
from app.rules.text.ways_templates import ALL_ZONES
from app.rules.text.ways_templates import GRANT_ESCAPE as GRANT_ESCAPE
from app.rules.text.ways_templates import GRANT_FLASHBACK as GRANT_FLASHBACK
from app.rules.text.ways_templates import GRANT_FLASHBACK_TARGET as GRANT_FLASHBACK_TARGET
from app.rules.text.ways_templates import GRANT_FREE as GRANT_FREE
from app.rules.text.ways_templates import GRANT_FROM_HAND_FREE as GRANT_FROM_HAND_FREE
from app.rules.text.ways_templates import GRANT_LIFE as GRANT_LIFE
from app.rules.text.ways_templates import GRANT_LIFE_ALTERNATIVE as GRANT_LIFE_ALTERNATIVE
from app.rules.text.ways_templates import GRANT_PAY_RATHER as GRANT_PAY_RATHER
from app.rules.text.ways_templates import GRANT_ZONE as GRANT_ZONE
from app.rules.text.ways_templates import KEYWORD_COST_IS_MANA_COST as KEYWORD_COST_IS_MANA_COST
from app.rules.text.ways_templates import KEYWORD_COST_LESS as KEYWORD_COST_LESS
from app.rules.text.ways_templates import OWN_ALTERNATIVE as OWN_ALTERNATIVE
from app.rules.text.ways_templates import OWN_ALTERNATIVE_FIRST as OWN_ALTERNATIVE_FIRST
from app.rules.text.ways_templates import OWN_WITHOUT_PAYING as OWN_WITHOUT_PAYING
from app.rules.text.ways_templates import OWN_ZONE as OWN_ZONE
from app.rules.text.ways_templates import OWN_ZONE_ADDITIONAL as OWN_ZONE_ADDITIONAL
from app.rules.text.ways_templates import OWN_ZONE_PAYING as OWN_ZONE_PAYING
from app.rules.text.ways_templates import OWN_ZONE_USING as OWN_ZONE_USING
from app.rules.text.ways_templates import WAYS as WAYS

__all__ = ["ALL_ZONES", "OwnText", "cost_phrase", "read_granted", "read_own", "sentences", "spell_kind"]
