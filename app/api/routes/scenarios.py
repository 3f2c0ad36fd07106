"""``/v1/scenarios``: stored boards, each call one ``app.services.scenarios`` function.

Every route needs ``Authorization: Bearer <api key>``; a key sees only its own scenarios (another key's
answer 404). Answers carry ``ETag`` (``"<id>-v<version>"``); ``PUT`` needs ``If-Match``, the other changes
accept it. Creating, replacing and deleting run in the request's transaction (``SessionDep``); setting a
choice and recording a played card, a read then one conditional write, in a ``StatementSessionDep``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Header, Path, Query, Request, Response, status
from starlette.concurrency import run_in_threadpool

from app.api import examples
from app.api.auth import ApiKeyDep, ApiKeyLateWriterDep, ApiKeyStatementWriterDep, ApiKeyWriterDep
from app.api.caching import next_link
from app.api.compute import INLINE_WORK_LIMIT, compute, computes, light
from app.api.deps import (
    ReadSessionDep,
    SessionDep,
    SettingsDep,
    StatementSessionDep,
    read_in_one_hop,
)
from app.api.docs import BOARD_PROBLEMS, problem_responses
from app.api.routing import BoundedBodyRoute
from app.cursors import LIMIT_DEFAULT, LIMIT_MAX
from app.errors import (
    AmbiguousCard,
    AppError,
    BadRequest,
    Conflict,
    InputError,
    InvalidChoice,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    RulesViolation,
    Unauthorized,
    UnknownCard,
)
from app.field_limits import NAME_LENGTH, OWNER_LENGTH
from app.rules.errors import RulesError
from app.schemas.board import PermanentId
from app.schemas.scenarios import (
    ChoiceIn,
    IdempotencyKey,
    PlayedAsIn,
    ScenarioComputedOut,
    ScenarioCostIn,
    ScenarioIn,
    ScenarioOut,
    ScenarioPage,
)
from app.schemas.spells import SpellCostOut
from app.services import scenarios as service
from app.services.scenario_versions import StoredScenario
from app.services.scenarios import IdempotencyKeyReused

router = APIRouter(prefix="/v1/scenarios", tags=["scenarios"], route_class=BoundedBodyRoute)

SCENARIO_ID_MAX = 64
INM_MAX = 2000  # If-Match and If-None-Match
ScenarioId = Annotated[str, Path(min_length=1, max_length=SCENARIO_ID_MAX, description="The scenario's id.")]
IfMatchHeader = Annotated[
    str | None,
    Header(
        alias="If-Match",
        max_length=INM_MAX,
        description='The scenario\'s current ETag (`"<id>-v<version>"`), or `*` for any version.',
    ),
]


def _out(scenario: StoredScenario) -> ScenarioOut:
    return ScenarioOut.model_validate(scenario.fields())


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=ScenarioComputedOut,
    summary="Store a board under a name",
    responses=problem_responses(Unauthorized, Conflict, IdempotencyKeyReused, *BOARD_PROBLEMS),
)
@computes(router, "")
async def create_scenario(
    request: Request,
    writer: ApiKeyLateWriterDep,
    body: Annotated[ScenarioIn, Body(openapi_examples=examples.SCENARIO)],
    reading: ReadSessionDep,
    session: SessionDep,
    response: Response,
    settings: SettingsDep,
    idempotency_key: Annotated[
        IdempotencyKey | None,
        Header(
            alias="Idempotency-Key",
            description="Makes a retry safe: the same key and body answer the scenario first created;"
            " the same key with another body is 422 (`idempotency-key-reused`).",
        ),
    ] = None,
) -> ScenarioComputedOut:
    """Store a board under a name (unique per API key and owner). The board is validated as the compute
    endpoints validate it; an invalid one is a 422 and nothing is stored."""
    checked, invalid = await _validated(request, body, reading)

    def write() -> tuple[service.Created, str]:
        created = service.create_scenario(
            session,
            api_key_id=writer.begin(session),  # the write lock (SQLite) only now, the board checked
            data=body,
            idempotency_key=idempotency_key,
            facts=checked.facts if checked is not None else None,
            invalid=invalid,
        )  # a replayed retry whose board no longer validates: the catalogue as it is now
        return created, checked.data_version if checked is not None else service.catalogue_version(session)

    created, data_version = await run_in_threadpool(write)
    scenario = created.scenario
    response.headers["Location"] = f"/v1/scenarios/{scenario.id}"
    response.headers["ETag"] = scenario.etag
    if created.replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return service.computed_answer(scenario, rules_edition=settings.rules_edition, data_version=data_version)


@router.get(
    "",
    response_model=ScenarioPage,
    summary="The API key's scenarios",
    responses=problem_responses(Unauthorized, BadRequest, InputError),
)
@light(router, "", "GET", "one indexed query for a page of at most LIMIT_MAX scenarios")
async def list_scenarios(
    request: Request,
    response: Response,
    api_key: ApiKeyDep,
    name: Annotated[
        str | None,
        Query(max_length=NAME_LENGTH, description="Only the scenario(s) with this exact name (empty: any)."),
    ] = None,
    owner: Annotated[
        str | None, Query(max_length=OWNER_LENGTH, description="Only this owner's scenarios (empty: any).")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=LIMIT_MAX)] = LIMIT_DEFAULT,
    cursor: Annotated[
        str | None, Query(max_length=2048, description="`next_cursor` of the previous page.")
    ] = None,
) -> ScenarioPage:
    """The key's scenarios, oldest first, paginated."""
    page = await read_in_one_hop(
        request,
        lambda session: service.list_scenarios(
            session,
            api_key_id=api_key,
            name=name or None,
            owner=owner or None,
            limit=limit,
            cursor=cursor or None,
        ),
    )
    next_link(request, response, page.next_cursor)
    return ScenarioPage(
        data=[_out(s) for s in page.items],
        has_more=page.next_cursor is not None,
        next_cursor=page.next_cursor,
    )


async def _validated(
    request: Request, body: ScenarioIn, reading: ReadSessionDep
) -> tuple[service.CheckedBoard | None, AppError | RulesError | None]:
    """The board's stored facts, or its error, computed within the compute boundary and before any write
    transaction begins: another key's write never waits for this one's names to resolve."""
    try:
        checked = await compute(
            lambda s: service.checked_board(s, body.board),
            reading,
            size=len(body.board.permanents),
            request=request,
        )
    except (AppError, RulesError) as exc:
        return None, exc
    return checked, None


def _read(session: ReadSessionDep, key_id: int, scenario_id: str, if_none_match: str | None) -> Response:
    """``GET /v1/scenarios/{id}``'s answer."""
    scenario = service.get_scenario(session, api_key_id=key_id, scenario_id=scenario_id)
    if if_none_match is not None and service.etag_matches_none(if_none_match, scenario):
        return Response(status_code=status.HTTP_304_NOT_MODIFIED, headers={"ETag": scenario.etag})
    # Validated once by _out: serialized once here, not validated again against response_model.
    return Response(
        _out(scenario).model_dump_json(), media_type="application/json", headers={"ETag": scenario.etag}
    )


@router.get(
    "/{scenario_id}",
    response_model=ScenarioOut,
    summary="One scenario",
    responses={
        304: {"description": "Not modified (If-None-Match holds the current ETag)"},
        **problem_responses(Unauthorized, NotFound),
    },
)
@light(router, "/{scenario_id}", "GET", "one indexed query for one scenario")
async def get_scenario(
    request: Request,
    api_key: ApiKeyDep,
    scenario_id: ScenarioId,
    if_none_match: Annotated[str | None, Header(alias="If-None-Match", max_length=INM_MAX)] = None,
) -> ScenarioOut | Response:
    """One scenario, with its ``ETag``."""
    return await read_in_one_hop(request, lambda session: _read(session, api_key, scenario_id, if_none_match))


@router.put(
    "/{scenario_id}",
    response_model=ScenarioComputedOut,
    summary="Replace a scenario (If-Match required)",
    responses=problem_responses(
        Unauthorized, NotFound, Conflict, PreconditionFailed, PreconditionRequired, *BOARD_PROBLEMS
    ),
)
@computes(router, "/{scenario_id}", "PUT")
async def replace_scenario(
    request: Request,
    writer: ApiKeyLateWriterDep,
    scenario_id: ScenarioId,
    body: Annotated[ScenarioIn, Body(openapi_examples=examples.SCENARIO_REPLACE)],
    reading: ReadSessionDep,
    session: SessionDep,
    response: Response,
    settings: SettingsDep,
    if_match: IfMatchHeader = None,
) -> ScenarioComputedOut:
    """Replace the scenario whole (its version grows by 1). Needs ``If-Match``: 428 without it, 412 when
    the scenario changed since."""
    service.replace_condition(if_match, scenario_id)
    checked, invalid = await _validated(request, body, reading)
    if invalid is not None:
        raise invalid
    assert checked is not None

    def write() -> StoredScenario:
        return service.replace_scenario(
            session,
            api_key_id=writer.begin(session),  # the write lock (SQLite) only now, the board checked
            scenario_id=scenario_id,
            data=body,
            if_match=if_match,
            facts=checked.facts,
        )

    scenario = await run_in_threadpool(write)
    response.headers["ETag"] = scenario.etag
    return service.computed_answer(
        scenario, rules_edition=settings.rules_edition, data_version=checked.data_version
    )


@router.delete(
    "/{scenario_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    response_class=Response,
    summary="Delete a scenario",
    responses=problem_responses(Unauthorized, NotFound, PreconditionFailed),
)
@light(router, "/{scenario_id}", "DELETE", "one DELETE statement")
def delete_scenario(
    api_key: ApiKeyWriterDep, scenario_id: ScenarioId, session: SessionDep, if_match: IfMatchHeader = None
) -> Response:
    """Delete the scenario (with ``If-Match``, only if it has not changed since)."""
    service.delete_scenario(session, api_key_id=api_key, scenario_id=scenario_id, if_match=if_match)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.put(
    "/{scenario_id}/permanents/{permanent_id}/choice",
    response_model=ScenarioOut,
    summary="Set the values chosen for a permanent (a creature type, a character...)",
    responses=problem_responses(
        Unauthorized, NotFound, Conflict, PreconditionFailed, InvalidChoice, InputError
    ),
)
@light(router, "/{scenario_id}/permanents/{permanent_id}/choice", "PUT", "a choice checked in constant lists")
def set_choice(
    api_key: ApiKeyStatementWriterDep,
    scenario_id: ScenarioId,
    permanent_id: Annotated[PermanentId, Path(description="The permanent's id.", examples=["horn"])],
    body: Annotated[ChoiceIn, Body(openapi_examples=examples.CHOICE)],
    session: StatementSessionDep,
    response: Response,
    if_match: IfMatchHeader = None,
) -> ScenarioOut:
    """Set the values chosen for a permanent (they replace its previous ones), after validating them."""
    scenario = service.set_choice(
        session,
        api_key_id=api_key,
        scenario_id=scenario_id,
        permanent_id=permanent_id,
        choice=body,
        if_match=if_match,
    )
    response.headers["ETag"] = scenario.etag
    return _out(scenario)


@router.post(
    "/{scenario_id}/permanents/{permanent_id}/played-as",
    response_model=ScenarioComputedOut,
    summary="Record a card chosen through a Richard Garfield, Ph.D.",
    responses=problem_responses(
        Unauthorized, NotFound, Conflict, PreconditionFailed, UnknownCard, AmbiguousCard, RulesViolation
    ),
)
@computes(router, "/{scenario_id}/permanents/{permanent_id}/played-as")
async def add_played_as(
    request: Request,
    api_key: ApiKeyStatementWriterDep,
    scenario_id: ScenarioId,
    permanent_id: Annotated[
        PermanentId, Path(description="The Richard Garfield, Ph.D.'s id.", examples=["richard"])
    ],
    body: Annotated[PlayedAsIn, Body(openapi_examples=examples.PLAYED_AS)],
    session: StatementSessionDep,
    response: Response,
    settings: SettingsDep,
    if_match: IfMatchHeader = None,
) -> ScenarioComputedOut:
    """Record a card chosen through a Richard Garfield, Ph.D. (409 if that Richard already chose it)."""
    # An unknown name searches suggestions: in a worker thread within the budget. The work stops only
    # at the search's checks, before its one write.
    scenario, data_version = await compute(
        lambda s: (
            service.add_played_as(
                s,
                api_key_id=api_key,
                scenario_id=scenario_id,
                permanent_id=permanent_id,
                card=body.card,
                if_match=if_match,
            ),
            service.catalogue_version(s),  # the catalogue that resolved the card
        ),
        session,
        size=INLINE_WORK_LIMIT + 1,
        request=request,
    )
    response.headers["ETag"] = scenario.etag
    return service.computed_answer(scenario, rules_edition=settings.rules_edition, data_version=data_version)


@router.post(
    "/{scenario_id}/spells/cost",
    response_model=SpellCostOut,
    summary="The total cost of a spell on the stored board",
    responses=problem_responses(Unauthorized, NotFound, *BOARD_PROBLEMS),
)
@computes(router, "/{scenario_id}/spells/cost")
async def scenario_spell_cost(
    request: Request,
    api_key: ApiKeyDep,
    scenario_id: ScenarioId,
    body: Annotated[ScenarioCostIn, Body(openapi_examples=examples.SCENARIO_SPELL_COST)],
    session: ReadSessionDep,
    settings: SettingsDep,
) -> SpellCostOut:
    """The ``POST /v1/spells/cost`` answer for a spell on the stored board."""
    # The board is read from the database first: straight to a worker thread, within the budget (a small
    # scenario could run unbounded and not cancelled here, before).
    return await compute(
        lambda s: service.scenario_spell_cost(
            s, api_key_id=api_key, scenario_id=scenario_id, request=body, settings=settings
        ),
        session,
        size=INLINE_WORK_LIMIT + 1,
        request=request,
    )
