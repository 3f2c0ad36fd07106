"""Request and response models of ``POST /v1/boards/analyze``."""

from __future__ import annotations

from pydantic import BaseModel, Field

from app.schemas.board import BoardIn
from app.schemas.common import ComputedAnswer, StrictModel
from app.schemas.warnings import WarningOut


class AnalyzeRequest(StrictModel):
    """A board to analyze."""

    board: BoardIn = Field(description="The board: permanents, players and their state.")


class ReasonOut(BaseModel):
    """Why an ability cannot be activated now, with the rule."""

    rule: str = Field(examples=["302.6"], description="The rule that forbids the activation.")
    text: str = Field(description="What is missing or forbids it, in words.")


class AbilityOut(BaseModel):
    """One activated ability of a permanent, as the board reads it."""

    index: int = Field(description="Stable within the board: land-type abilities (CR 305.6), own, granted.")
    cost: str = Field(description="The activation cost as written.", examples=["{1}, {T}"])
    text: str = Field(description="The effect (reminder text removed).")
    is_mana_ability: bool | None = Field(description="CR 605.1a; null when its text was not understood.")
    can_activate: bool = Field(
        description="Whether it can be activated on this board now (CR 602.5, 602.2b, 118.3)."
    )
    reasons: list[ReasonOut] = Field(description="Why not, when `can_activate` is false.")
    produces: str | None = Field(
        description="The mana one activation adds at most, as a cost string, after replacement effects and "
        'triggered mana abilities (CR 106.12): "{G}{G}{G}" for Gaea\'s Cradle with three creatures, '
        '"{0}" when it adds nothing now; null when it is a choice (see `alternatives`), when it adds more '
        "than 100 mana (see `amount`), when it adds no mana at all, or when its text was not understood.",
        examples=["{G}{G}{G}", "{C}{C}", None],
    )
    amount: int | None = Field(
        description="How many mana one activation adds at most: an exact integer however large (counts "
        "saturate only at 10^1000, with a warning). Null for an ability that adds no mana or whose text "
        "was not understood.",
        examples=[3, 268435456],
    )
    restriction: str | None = Field(
        description="The spending restriction on the mana it adds (CR 106.6), as printed; null when none.",
        examples=["Spend this mana only to cast a creature spell of the chosen type."],
    )
    alternatives: list[str] | None = Field(
        description="Each way one activation can go (a choice of color, an order of replacement effects, "
        "CR 616.1), as cost strings, smallest first; alternatives contained in a larger one are left out. "
        "[] adds nothing now; null as for `produces` when one of them is above 100 mana, when it adds no "
        "mana at all, or when its text was not understood.",
        examples=[["{W}", "{G}"], ["{G}{G}"]],
    )
    origin: str = Field(description="land_type (CR 305.6), printed or granted (CR 613.1f).")
    rule: str = Field(
        description="The rule that makes it an ability of this permanent (e.g. 305.6 for a land type)."
    )
    granted_by: str | None = Field(None, description="The id of the permanent granting it, when granted.")


class LostAbilityOut(BaseModel):
    """An activated ability a permanent lost (CR 613.1f), with the permanent responsible."""

    cost: str = Field(description="Its activation cost as written.", examples=["{T}"])
    text: str = Field(description="Its effect.", examples=["Add {G}."])
    lost_to: str = Field(description="The id of the permanent whose effect took it.", examples=["frogify"])
    card: str = Field(description="That permanent's card name.", examples=["Frogify"])
    rule: str = Field("613.1f", description="The rule: an ability-removing effect (layer 6).")


class PermanentAnalysis(BaseModel):
    """A permanent of the board: what it could produce and its abilities."""

    id: str = Field(description="The permanent's id as given.")
    name: str = Field(description="The card's name.")
    oracle_id: str | None = Field(description="The card's Oracle id; null for an inline card.")
    could_produce: list[str] = Field(description="CR 106.7, in W U B R G C order.")
    abilities: list[AbilityOut] = Field(description="Its activated abilities (mana abilities and others).")
    abilities_lost: list[LostAbilityOut] = Field(
        default_factory=list,
        description='Activated abilities it would have but lost to an effect ("loses all abilities", CR '
        "613.1f): not in `abilities`, never used by payments.",
    )


class PartyOut(BaseModel):
    """A player's party (CR 700.8): the largest set of one Cleric, Rogue, Warrior and Wizard."""

    size: int = Field(description="How many of the four roles are filled (0 to 4).")
    members: dict[str, str | None] = Field(
        description="Each role and the id of the creature filling it (null: unfilled)."
    )


class PlayerAnalysis(BaseModel):
    """What the board says about one player."""

    party: PartyOut = Field(description="The player's party (CR 700.8).")


class AnalyzeAnswer(ComputedAnswer):
    """A board's analysis: each player and each permanent."""

    players: dict[str, PlayerAnalysis] = Field(description="By player name.")
    permanents: list[PermanentAnalysis] = Field(description="In the board's order.")
    warnings: list[WarningOut] = Field(description="Texts not understood: they have no effect here.")
