"""HTTP validators and page links: ``ETag`` + ``Cache-Control`` on cacheable GETs (a 304 for a matching
``If-None-Match``, RFC 9110 13.1.2) and ``Link: <...>; rel="next"`` (RFC 8288) beside a page's cursor."""

from __future__ import annotations

import hashlib

from fastapi import Request, Response

STATIC_CACHE_CONTROL = "public, max-age=3600, must-revalidate"
"""Answers fixed for a release (the symbols, the creature types, the OpenAPI document)."""


def etag_of(content: bytes) -> str:
    """A weak tag of ``content`` (the same answer gzip-encoded or not, RFC 9110 8.8.1)."""
    return 'W/"' + hashlib.sha256(content).hexdigest()[:20] + '"'


def matches(request: Request, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (weak comparison) or is ``*``."""
    given = request.headers.get("if-none-match")
    if given is None:
        return False
    tags = {t.strip().removeprefix("W/") for t in given.split(",")}
    return "*" in tags or etag.removeprefix("W/") in tags


def validated(request: Request, response: Response, etag: str, cache_control: str) -> Response | None:
    """Set ``ETag`` and ``Cache-Control`` on ``response``; a 304 answer instead when the client has it."""
    headers = {"ETag": etag, "Cache-Control": cache_control}
    if matches(request, etag):
        return Response(status_code=304, headers=headers)
    response.headers.update(headers)
    return None


def next_link(request: Request, response: Response, next_cursor: str | None) -> None:
    """``Link: </path?...&cursor=NEXT>; rel="next"`` when there is a next page. The target is relative:
    the Host header is the client's to forge, so it is never echoed (as in ``Location``)."""
    if next_cursor is None:
        return
    url = request.url.include_query_params(cursor=next_cursor)
    response.headers["Link"] = f'<{url.path}?{url.query}>; rel="next"'
