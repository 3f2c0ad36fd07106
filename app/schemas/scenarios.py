"""Request and response models of ``/v1/scenarios`` (API.md "Scenarios")."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from app.field_limits import DESCRIPTION_LENGTH, IDEMPOTENCY_KEY_LENGTH, NAME_LENGTH, OWNER_LENGTH
from app.schemas.board import BoardIn, CardName, ChosenIn, PlayerName
from app.schemas.common import ComputedAnswer, Page, StrictModel
from app.schemas.spells import Spell

# At least one non-space character: a blank name or owner is a client bug, not a value.
ScenarioName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=NAME_LENGTH, pattern=r"\S"),
    Field(examples=["Elf tribal"]),
]
Owner = Annotated[
    str,
    StringConstraints(min_length=1, max_length=OWNER_LENGTH, pattern=r"\S"),
    Field(description="The client's own id for its user: scopes names and listing.", examples=["user-42"]),
]
Description = Annotated[str, Field(max_length=DESCRIPTION_LENGTH)]
IdempotencyKey = Annotated[str, StringConstraints(min_length=1, max_length=IDEMPOTENCY_KEY_LENGTH)]


class ScenarioIn(StrictModel):
    """A scenario to store: a named board (POST creates it, PUT replaces it whole)."""

    name: ScenarioName = Field(description="The scenario's name, unique per API key and owner.")
    description: Description = Field("", description="Free text.")
    owner: Owner | None = Field(
        None, description="The client's own id for its user (one key may serve many users)."
    )
    board: BoardIn = Field(description="The stored board.")


class ScenarioOut(BaseModel):
    """A stored scenario. ``version`` starts at 1 and grows by exactly 1 with each change; the ``ETag``
    header carries it."""

    id: str = Field(description="The scenario's id.")
    name: str = Field(description="Its name.")
    description: str = Field(description="Its description.")
    owner: str | None = Field(description="Its owner, as given.")
    board: BoardIn = Field(description="The stored board.")
    version: int = Field(description="1 at creation, one more at each change (the ETag is built from it).")
    created_at: datetime = Field(description="When it was created (UTC).")
    updated_at: datetime = Field(description="When it last changed (UTC).")


class ScenarioComputedOut(ScenarioOut, ComputedAnswer):
    """A stored scenario as the operations that compute answer it (creating or replacing it validates its
    board against the catalogue; recording a card played through a Richard resolves that card), with the
    rules edition followed and the version of the catalogue that answered."""


class ScenarioPage(Page[ScenarioOut]):
    """A page of scenarios (pass ``next_cursor`` back as ``cursor``)."""


class ChoiceIn(ChosenIn):
    """The values chosen for a permanent (they replace its previous ones): ``{"creature_type": "Elf"}``
    (one existing creature type, CR 205.3m), ``{"character": "Urza"}`` (Vorthos), ``{"color": "G"}``,
    ``{"card_name": "..."}``."""


class PlayedAsIn(StrictModel):
    """A card chosen through a Richard Garfield, Ph.D. (ruling: each card can be chosen only once)."""

    card: CardName = Field(description="The card chosen through the Richard Garfield, Ph.D.")


class ScenarioCostIn(StrictModel):
    """``POST /v1/scenarios/{id}/spells/cost``: a spell on the stored board."""

    caster: PlayerName = Field("you", description="The player casting the spell.")
    spell: Spell = Field(description="The spell, cast on the stored board.")
