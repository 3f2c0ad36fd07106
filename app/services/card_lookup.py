"""The card look-ups of ``/v1/cards/...`` as units of work for the compute boundary.

Each takes the session the boundary hands it (the offline one first, a real one in a worker thread) and
answers with the catalogue's ``data_version``, which the routes turn into an ``ETag``. An unknown name
searches suggestions (``CardIndex.suggestions``, thousands of names compared), and autocomplete scans
every name: work to bound like any other computation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy.orm import Session

from app.rules.values.cards import Card
from app.services.catalogue import Catalogue


def named(session: Session, *, exact: str | None, fuzzy: str | None) -> tuple[Card, str]:
    """``GET /v1/cards/named``: by exact name, else by a close one (404 with suggestions)."""
    catalogue = Catalogue(session)
    if exact is not None:
        return catalogue.exact(exact, unknown_status=404), catalogue.data_version
    return catalogue.fuzzy(fuzzy or "", unknown_status=404), catalogue.data_version


def by_ref(session: Session, ref: str) -> tuple[Card, str]:
    """``GET /v1/cards/{name or oracle id}``."""
    catalogue = Catalogue(session)
    return catalogue.lookup(ref, unknown_status=404), catalogue.data_version


def autocomplete(session: Session, query: str) -> tuple[list[str], str]:
    """``GET /v1/cards/autocomplete``."""
    catalogue = Catalogue(session)
    return catalogue.autocomplete(query), catalogue.data_version


def collection(
    session: Session, identifiers: Sequence[Mapping[str, str]]
) -> tuple[list[Card], list[dict[str, str]], str]:
    """``POST /v1/cards/collection``: the cards found, the identifiers that found none, the version."""
    catalogue = Catalogue(session)
    found, missing = catalogue.collection(identifiers)
    return found, missing, catalogue.data_version
