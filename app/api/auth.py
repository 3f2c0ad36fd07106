"""``Authorization: Bearer <api key>`` for the scenario endpoints.

``ApiKeyDep`` (reading routes), ``ApiKeyWriterDep`` (routes that change data in the request's
transaction) and ``ApiKeyStatementWriterDep`` (routes that change data in one statement, in a
``StatementSessionDep``) resolve to the id of the calling key, or answer 401 problem+json. All declare
the ``ApiKey`` HTTP bearer security scheme, so the docs explorer's "Authorize" button works. Declare the
key first among a route's parameters: a writer's transaction must start with it (see
``app.services.api_keys.authenticate``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from sqlalchemy.orm import Session

from app.api.deps import SessionDep, StatementSessionDep, read_in_one_hop
from app.errors import Unauthorized
from app.services.api_keys import authenticate, cached_key_id

bearer_scheme = HTTPBearer(
    auto_error=False,
    scheme_name="ApiKey",
    description="An API key made by `manacalc create-api-key NAME`, sent as `Authorization: Bearer <key>`.",
)

Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer_scheme)]


def _presented(credentials: Credentials) -> HTTPAuthorizationCredentials:
    if credentials is None:
        raise Unauthorized("Send your API key as `Authorization: Bearer <key>`.")
    return credentials


def _key_id(session: SessionDep, credentials: Credentials, *, writing: bool) -> int:
    credentials = _presented(credentials)
    key_id = authenticate(session, key=credentials.credentials, writing=writing)
    if key_id is None:
        raise Unauthorized("Unknown or revoked API key.")
    return key_id


async def api_key_reader(request: Request, credentials: Credentials) -> int:
    """The calling key's id, for a route that only reads: from the key cache without leaving the event
    loop, else looked up in the thread pool with a read session of its own (no session dependency to
    solve for the cached case, the usual one)."""
    presented = _presented(credentials)
    key_id = cached_key_id(presented.credentials)
    if key_id is not None:
        return key_id
    return await read_in_one_hop(request, lambda session: _key_id(session, presented, writing=False))


def api_key_writer(session: SessionDep, credentials: Credentials) -> int:
    """The calling key's id, for a route that writes."""
    return _key_id(session, credentials, writing=True)


def api_key_statement_writer(session: StatementSessionDep, credentials: Credentials) -> int:
    """The calling key's id, for a route that writes in one statement: no transaction to make a writer
    first (each statement is its own), so the key is read, when not cached, as a reader reads it."""
    return _key_id(session, credentials, writing=False)


@dataclass(frozen=True, slots=True)
class LateWriter:
    """A key checked as a reader checks it, whose write transaction begins only at ``begin``.

    A route that must compute before it writes (validate a board, resolve its names, search suggestions
    for unknown ones) does so first, outside any transaction: on SQLite ``BEGIN IMMEDIATE`` holds the one
    write lock of the database, and another key's write waited for the whole validation."""

    key_id: int
    key: str

    def begin(self, session: Session) -> int:
        """Begin the write in ``session`` (on SQLite taking the write lock) and check the key again there
        (it may have been revoked meanwhile); the key's id."""
        credentials = HTTPAuthorizationCredentials(scheme="Bearer", credentials=self.key)
        return _key_id(session, credentials, writing=True)


async def api_key_late_writer(request: Request, credentials: Credentials) -> LateWriter:
    """The calling key, for a route that writes after computing: 401 at once for a bad key, the write
    lock taken only by ``LateWriter.begin``."""
    key_id = await api_key_reader(request, credentials)
    assert credentials is not None  # api_key_reader answered 401 otherwise
    return LateWriter(key_id, credentials.credentials)


ApiKeyDep = Annotated[int, Depends(api_key_reader)]
ApiKeyLateWriterDep = Annotated[LateWriter, Depends(api_key_late_writer)]
ApiKeyWriterDep = Annotated[int, Depends(api_key_writer)]
ApiKeyStatementWriterDep = Annotated[int, Depends(api_key_statement_writer)]
