"""What ``read_board`` reads from a permanent's face alone, read once per face text and kept.

Every board read asks the same questions of each permanent's text: its mana reading (``read_text``), the
abilities it takes away (CR 613.1f, ``read_losses``), the named lands it changes (Alpine Moon,
``read_named_land_changes``), what it forbids (CR 602.5, ``read_prohibitions``) and the warnings on its
lines not understood. Each answer is a function of the texts alone, so one entry per face text holds them
all: a board of 25 permanents looks up 25 entries instead of 150, and the warnings need no sorting out of
the lines ``ability_loss`` reads on every board.

What is kept never depends on the board or the permanent: not its id, controller, counters, what it is
attached to or chosen (the warnings are kept without the id, which ``read_board`` adds), nor whether it
keeps its abilities on this board (layer 4 and 613.1f are applied per board, as before). Bounded in entries
and characters like the readers it calls (``text_cache``).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.rules.bounded_cache import text_cache
from app.rules.mana.ability_loss import AbilityLoss, read_losses
from app.rules.mana.prohibitions import (
    NamedLandChange,
    Prohibition,
    read_named_land_changes,
    read_prohibitions,
)
from app.rules.text.oracle_mana import FaceMana, read_text, strip_reminder

UNKNOWN_CONDITION = (
    "an activation condition not understood: the ability is taken as not activatable (CR 602.5b)"
)


@dataclass(frozen=True, slots=True)
class FaceReading:
    """A face's answers (see the module doc). ``reading``: of the text as it stands on the battlefield (a
    Class's levels, CR 716.2a; a basic land type's reminder dropped, CR 305.6); the others of the printed
    text. ``warnings``: (line, why) of the reading's problems not read by ``ability_loss`` then of the
    activation conditions not understood, in that order."""

    reading: FaceMana
    losses: tuple[AbilityLoss, ...]
    named_land_changes: tuple[NamedLandChange, ...]
    prohibitions: tuple[Prohibition, ...]
    warnings: tuple[tuple[str, str], ...]

    def __init__(
        self,
        reading: FaceMana,
        losses: tuple[AbilityLoss, ...],
        named_land_changes: tuple[NamedLandChange, ...],
        prohibitions: tuple[Prohibition, ...],
        warnings: tuple[tuple[str, str], ...],
    ) -> None:
        # Written out so that mypyc compiles it (tests/rules/test_native_inits.py).
        object.__setattr__(self, "reading", reading)
        object.__setattr__(self, "losses", losses)
        object.__setattr__(self, "named_land_changes", named_land_changes)
        object.__setattr__(self, "prohibitions", prohibitions)
        object.__setattr__(self, "warnings", warnings)


def loss_line(line: str, name: str) -> str:
    """A line as ``ability_loss.read_losses`` keeps it (its ``text``)."""
    text = strip_reminder(line).strip().rstrip(".")
    return text.replace(name, "~") if name else text


def read_face_anew(text: str, oracle_text: str, name: str) -> FaceReading:
    """The answers for a face named ``name`` whose printed text is ``oracle_text`` and whose text as it
    stands is ``text``, each from its reader (``read_board(memo=False)``; the property tests compare)."""
    reading = read_text(text, name)
    losses = read_losses(oracle_text, name)
    read = {x.text for x in losses}
    warnings = [(line, why) for line, why in reading.problems if loss_line(line, name) not in read]
    warnings.extend(
        (f"Activate only {c.text}.", UNKNOWN_CONDITION)
        for a in reading.activated
        for c in a.conditions
        if c.kind == "unknown"
    )
    return FaceReading(
        reading,
        losses,
        read_named_land_changes(oracle_text, name),
        read_prohibitions(oracle_text, name),
        tuple(warnings),
    )


kept_face_reading = text_cache(entries=4096, chars=4_000_000)(read_face_anew)
"""``read_face_anew`` kept per (text as it stands, printed text, name): the two texts are most often one
string, counted twice, hence twice the readers' character bound."""
