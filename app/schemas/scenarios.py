"""Request and response models of ``/v1/scenarios`` (API.md "Scenarios")."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, Field, StringConstraints

from app.field_limits import DESCRIPTION_LENGTH, IDEMPOTENCY_KEY_LENGTH, NAME_LENGTH, OWNER_LENGTH
from app.schemas.board import BoardIn, CardName, ChosenIn, PlayerName
from app.schemas.common import Page, StrictModel
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

    name: ScenarioName
    description: Description = ""
    owner: Owner | None = None
    board: BoardIn


class ScenarioOut(BaseModel):
    """A stored scenario. ``version`` starts at 1 and grows by exactly 1 with each change; the ``ETag``
    header carries it."""

    id: str
    name: str
    description: str
    owner: str | None
    board: BoardIn
    version: int
    created_at: datetime
    updated_at: datetime


class ScenarioPage(Page[ScenarioOut]):
    """A page of scenarios (pass ``next_cursor`` back as ``cursor``)."""


class ChoiceIn(ChosenIn):
    """The values chosen for a permanent (they replace its previous ones): ``{"creature_type": "Elf"}``
    (one existing creature type, CR 205.3m), ``{"character": "Urza"}`` (Vorthos), ``{"color": "G"}``,
    ``{"card_name": "..."}``."""


class PlayedAsIn(StrictModel):
    """A card chosen through a Richard Garfield, Ph.D. (ruling: each card can be chosen only once)."""

    card: CardName


class ScenarioCostIn(StrictModel):
    """``POST /v1/scenarios/{id}/spells/cost``: a spell on the stored board."""

    caster: PlayerName = "you"
    spell: Spell
