"""Response models of the card catalogue (``/v1/cards``, ``/v1/creature-types``) and their conversion from
``app.rules.values.cards.Card``."""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import BaseModel, Field, model_validator

from app.rules.text.oracle_mana import card_produced_mana
from app.rules.values.cards import Card, Face
from app.rules.values.symbols import COLORS
from app.rules.values.types import TypeLine
from app.schemas.common import ComputedAnswer, Page, StrictModel

MAX_NAME_LENGTH: Final = 200
COLLECTION_MAX: Final = 1000


class FaceOut(BaseModel):
    """One face of a multi-face card, with its own characteristics."""

    name: str = Field(description="The face's name.")
    mana_cost: str | None = Field(description="Canonical; null when the face has no mana cost.")
    mana_value: int | float | None = Field(description="The face's mana value (CR 202.3); null for {∞}.")
    colors: list[str] = Field(description="The face's colors (CR 105.2), W U B R G.")
    type_line: str = Field(description="The face's type line as printed.")
    supertypes: list[str] = Field(description="Supertypes (CR 205.4), e.g. Legendary, Basic.")
    types: list[str] = Field(description="Card types (CR 205.2a), e.g. Creature, Instant.")
    subtypes: list[str] = Field(description="Subtypes (CR 205.3), e.g. Elf, Druid.")
    oracle_text: str = Field(description="The face's Oracle text.")
    keywords: list[str] = Field(description="Keywords the face has, as Scryfall lists them.")
    flavor_text: str | None = Field(description="Flavor text, when the catalogue has it (Vorthos reads it).")
    power: str | None = Field(default=None, description='As printed ("*", "1+*"); null if none.')
    toughness: str | None = Field(None, description="As printed; null if none.")
    loyalty: str | None = Field(None, description="Starting loyalty as printed; null if none.")

    @classmethod
    def of(cls, face: Face) -> FaceOut:
        return cls(
            name=face.name,
            mana_cost=str(face.mana_cost) if face.mana_cost is not None else None,
            mana_value=face.mana_value,  # CR 202.3a-c: 0 without a mana cost, a meld result's its fronts'
            colors=list(face.color_set),
            type_line=str(face.type_line),
            supertypes=list(face.type_line.supertypes),
            types=list(face.type_line.types),
            subtypes=list(face.type_line.subtypes),
            oracle_text=face.oracle_text,
            keywords=list(face.keywords),
            flavor_text=face.flavor_text,
            power=face.power,
            toughness=face.toughness,
            loyalty=face.loyalty,
        )


class CardOut(BaseModel):
    """A catalogue card. For multi-face cards the top-level fields describe the card as a whole (a split
    card's mana cost is both halves' combined, CR 709.4) and ``card_faces`` each face."""

    name: str = Field(description="The card's name (both halves of a split card).", examples=["Fire // Ice"])
    oracle_id: str | None = Field(description="The card's Oracle id; null for a card given inline.")
    layout: str = Field(description="Scryfall's layout: normal, split, transform, modal_dfc, adventure...")
    mana_cost: str | None = Field(description="Canonical; null for a card with no mana cost (a land).")
    mana_value: int | float | None = Field(description="CR 202.3; null for {∞}.")
    colors: list[str] = Field(description="The card's colors (CR 105.2), W U B R G.")
    type_line: str = Field(description="The type line as printed (both faces of a double-faced card).")
    supertypes: list[str] = Field(description="Supertypes of the front face (CR 205.4).")
    types: list[str] = Field(description="Card types of the front face (CR 205.2a).")
    subtypes: list[str] = Field(description="Subtypes of the front face (CR 205.3).")
    oracle_text: str = Field(description="The front face's Oracle text.")
    keywords: list[str] = Field(description="Keywords the card has, as Scryfall lists them.")
    flavor_text: str | None = Field(description="Flavor text, when the catalogue has it.")
    legalities: dict[str, str] = Field(
        description="Format → legal, restricted or banned; a format not listed is not legal."
    )
    card_faces: list[FaceOut] | None = Field(description="Each face of a multi-face card; null otherwise.")
    color_identity: list[str] | None = Field(
        default=None, description="CR 903.4, in WUBRG order; null when the catalogue's source does not say."
    )
    power: str | None = Field(default=None, description="The front face's printed power; null if none.")
    toughness: str | None = Field(None, description="The front face's printed toughness; null if none.")
    loyalty: str | None = Field(None, description="The front face's printed loyalty; null if none.")
    produced_mana: list[str] = Field(
        default_factory=list,
        description="The mana types (W, U, B, R, G, C) its abilities could ever add, read from its text.",
    )

    @classmethod
    def of(cls, card: Card) -> CardOut:
        faces = card.faces
        multi = len(faces) > 1
        cost = card.mana_cost
        if multi:
            colors = {c for f in (faces if card.is_split else faces[:1]) for c in f.color_set}
            supertypes = list(dict.fromkeys(s for f in faces for s in f.type_line.supertypes))
            types = list(dict.fromkeys(t for f in faces for t in f.type_line.types))
            subtypes = list(dict.fromkeys(s for f in faces for s in f.type_line.subtypes))
            type_line = " // ".join(str(f.type_line) for f in faces)
            oracle_text = "\n//\n".join(f.oracle_text for f in faces)
        else:
            front: TypeLine = card.front.type_line
            colors = set(card.front.color_set)
            supertypes, types, subtypes = list(front.supertypes), list(front.types), list(front.subtypes)
            type_line = str(front)
            oracle_text = card.front.oracle_text
        return cls(
            name=card.name,
            oracle_id=card.oracle_id,
            layout=card.layout,
            mana_cost=str(cost) if cost is not None else None,
            mana_value=card.mana_value,
            colors=[c for c in COLORS if c in colors],
            type_line=type_line,
            supertypes=supertypes,
            types=types,
            subtypes=subtypes,
            oracle_text=oracle_text,
            keywords=list(card.keywords),
            flavor_text=card.front.flavor_text,
            legalities={f: s for f, s in card.legalities if s != "not_legal"},
            card_faces=[FaceOut.of(f) for f in faces] if multi else None,
            color_identity=list(card.color_identity) if card.color_identity is not None else None,
            power=card.front.power,
            toughness=card.front.toughness,
            loyalty=card.front.loyalty,
            produced_mana=list(card_produced_mana(card)),
        )


class CardAnswer(CardOut, ComputedAnswer):
    """``GET /v1/cards/{name or oracle_id}`` and ``/v1/cards/named``: a card (its ``produced_mana`` read
    by the rules), the rules edition and the catalogue version."""


class CardPage(Page[CardOut], ComputedAnswer):
    """``GET /v1/cards``: a page of cards sorted by name."""


class CreatureTypes(Page[str]):
    """``GET /v1/creature-types``: every creature type of CR 205.3m, in the rule's order."""

    rules_edition: str = Field(description="The Comprehensive Rules edition the list comes from.")


class AutocompleteAnswer(ComputedAnswer):
    """``GET /v1/cards/autocomplete``: up to 20 card names."""

    data: list[str] = Field(
        description="Names starting with q first (shorter first), then names with a word starting with q."
    )


class CardIdentifier(StrictModel):
    """One card of a collection request: by exact name (card or face, folded) or by oracle id."""

    name: Annotated[str | None, Field(min_length=1, max_length=MAX_NAME_LENGTH)] = Field(
        None, description="A card's or a face's full name (case and accents folded)."
    )
    oracle_id: Annotated[str | None, Field(min_length=1, max_length=64)] = Field(
        None, description="A card's Oracle id."
    )

    @model_validator(mode="after")
    def _one_of(self) -> CardIdentifier:
        if (self.name is None) == (self.oracle_id is None):
            raise ValueError("give exactly one of name and oracle_id")
        return self


class CollectionRequest(StrictModel):
    """``POST /v1/cards/collection``: up to 1,000 identifiers."""

    identifiers: Annotated[list[CardIdentifier], Field(min_length=1, max_length=COLLECTION_MAX)] = Field(
        description="The cards to fetch, each by `name` or by `oracle_id` (up to 1,000)."
    )


class CollectionAnswer(ComputedAnswer):
    """The cards found, in request order, and the identifiers that matched no single card."""

    data: list[CardOut] = Field(description="The cards found, in the order asked.")
    not_found: list[dict[str, str]] = Field(description="The identifiers as given that found no single card.")
