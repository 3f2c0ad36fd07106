"""One write per answer (``app.api.corked_writes``): uvicorn's own request-response cycle, given a transport
that records each write, sends the status line, headers and body of an answer in one write, with the same
bytes as uncorked; what must not wait (``100 Continue``, a streamed body's later pieces, a close) does not.
Then the same over raw sockets against our protocol in a real uvicorn server."""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from uvicorn.protocols.http.flow_control import FlowControl
from uvicorn.protocols.http.httptools_impl import RequestResponseCycle

from app.api.corked_writes import cork_answers
from app.api.http_server import ServerLimits
from tests.api.test_hostile_connections import Served, read_answer, serve


class RecordingTransport:
    """Each ``write`` kept apart, and the close, in order."""

    def __init__(self) -> None:
        self.events: list[bytes | str] = []
        self.closing = False

    def write(self, data: bytes) -> None:
        self.events.append(bytes(data))

    def close(self) -> None:
        self.closing = True
        self.events.append("close")

    def is_closing(self) -> bool:
        return self.closing

    # FlowControl's needs
    def pause_reading(self) -> None: ...

    def resume_reading(self) -> None: ...


def _cycle(method: str = "GET", *, keep_alive: bool = True, expect_100: bool = False) -> Any:
    transport = RecordingTransport()
    cycle = RequestResponseCycle(
        scope={"method": method, "http_version": "1.1", "path": "/", "query_string": b"", "client": None},
        transport=transport,  # type: ignore[arg-type]
        flow=FlowControl(transport),  # type: ignore[arg-type]
        logger=logging.getLogger("test"),
        access_logger=logging.getLogger("test.access"),
        access_log=False,
        default_headers=[],
        message_event=asyncio.Event(),
        expect_100_continue=expect_100,
        keep_alive=keep_alive,
        on_response=lambda: None,
    )
    cycle.more_body = False  # the request has all arrived, as a parsed GET's has
    return cycle, transport


BODY = b'{"total_cost":"{2}{W}"}'
START = {"type": "http.response.start", "status": 200, "headers": [(b"content-length", b"23")]}
HEAD = b"HTTP/1.1 200 OK\r\ncontent-length: 23\r\n\r\n"


async def _answer(cycle: Any, *messages: dict[str, Any]) -> None:
    for message in messages:
        await cycle.send(message)


@pytest.mark.parametrize("corked", [False, True])
def test_an_answer_is_the_same_bytes_and_one_write_when_corked(corked: bool) -> None:
    cycle, transport = _cycle()
    if corked:
        cork_answers(cycle)
    asyncio.run(_answer(cycle, START, {"type": "http.response.body", "body": BODY}))
    assert b"".join(e for e in transport.events if isinstance(e, bytes)) == HEAD + BODY
    assert transport.events == ([HEAD + BODY] if corked else [HEAD, BODY])


def test_a_head_request_sends_its_head_when_the_answer_ends() -> None:
    cycle, transport = _cycle("HEAD")
    cork_answers(cycle)
    asyncio.run(_answer(cycle, START, {"type": "http.response.body", "body": b""}))
    assert transport.events == [HEAD]


def test_a_streamed_body_sends_its_first_piece_with_the_head_and_the_rest_as_they_come() -> None:
    cycle, transport = _cycle()
    cork_answers(cycle)
    start = {"type": "http.response.start", "status": 200, "headers": []}  # chunked
    seen: list[list[bytes | str]] = []

    async def stream() -> None:
        await cycle.send(start)
        seen.append(list(transport.events))  # nothing written yet: the head waits for the body
        for piece in (b"one", b"two"):
            await cycle.send({"type": "http.response.body", "body": piece, "more_body": True})
            seen.append(list(transport.events))
        await cycle.send({"type": "http.response.body", "body": b""})

    asyncio.run(stream())
    head = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
    assert seen == [[], [head + b"3\r\none\r\n"], [head + b"3\r\none\r\n", b"3\r\ntwo\r\n"]]
    assert transport.events[-1] == b"0\r\n\r\n"


def test_a_connection_that_closes_after_its_answer_writes_it_first() -> None:
    cycle, transport = _cycle(keep_alive=False)
    cork_answers(cycle)
    asyncio.run(_answer(cycle, START, {"type": "http.response.body", "body": BODY}))
    head = HEAD.replace(b"\r\n\r\n", b"\r\nconnection: close\r\n\r\n")
    assert transport.events == [head + BODY, "close"]


def test_100_continue_is_not_held() -> None:
    cycle, transport = _cycle("POST", expect_100=True)
    cork_answers(cycle)

    async def read_then_answer() -> None:
        cycle.more_body = False
        cycle.message_event.set()
        await cycle.receive()
        assert transport.events == [b"HTTP/1.1 100 Continue\r\n\r\n"]
        await _answer(cycle, START, {"type": "http.response.body", "body": BODY})

    asyncio.run(read_then_answer())
    assert transport.events == [b"HTTP/1.1 100 Continue\r\n\r\n", HEAD + BODY]


def test_an_answer_the_cycle_refuses_releases_nothing_half_written() -> None:
    """A header uvicorn refuses raises before anything is written; the next message is refused too."""
    cycle, transport = _cycle()
    cork_answers(cycle)
    bad = {"type": "http.response.start", "status": 200, "headers": [(b"x-bad", b"a\r\nb")]}
    with pytest.raises(RuntimeError):
        asyncio.run(_answer(cycle, bad))
    assert transport.events == []


# -- over raw sockets, against our protocol in a real server ------------------------------------------


@pytest.fixture
def served() -> Iterator[Served]:
    yield from serve(ServerLimits())


def test_kept_alive_answers_arrive_whole_and_in_order(served: Served) -> None:
    with served.connect() as sock:
        for i in range(3):
            body = b"x" * i
            sock.sendall(
                b"POST /echo%d HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n%s" % (i, len(body), body)
            )
            head = b""
            while b"\r\n\r\n" not in head:
                head += sock.recv(65536)
            headers, _, rest = head.partition(b"\r\n\r\n")
            length = int(headers.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            while len(rest) < length:
                rest += sock.recv(65536)
            assert headers.startswith(b"HTTP/1.1 200 OK")
            assert rest == b'{"path": "/echo%d", "body_bytes": %d}' % (i, i)


def test_a_head_request_and_an_expect_100_request_are_answered(served: Served) -> None:
    with served.connect() as sock:
        sock.sendall(b"HEAD /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        head = sock.recv(65536)
        assert head.startswith(b"HTTP/1.1 200 OK") and head.endswith(b"\r\n\r\n")
    with served.connect() as sock:
        sock.settimeout(5)
        sock.sendall(b"POST /e HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        assert sock.recv(65536) == b"HTTP/1.1 100 Continue\r\n\r\n"  # before the body is sent
        sock.sendall(b"abcd")
        sock.shutdown(socket.SHUT_WR)
        status, answer = read_answer(sock)
        assert status == 200 and answer.endswith(b'{"path": "/e", "body_bytes": 4}')


def test_an_answer_started_before_the_body_ended_closes_the_connection() -> None:
    """A 413 or a 429 answered while the request body is still arriving says ``Connection: close``, and
    the cycle's close goes through the protocol's closer (its deadlines), not straight to the transport."""
    cycle, transport = _cycle()
    cycle.more_body = True
    closed: list[bool] = []
    cork_answers(cycle, lambda: closed.append(True))
    asyncio.run(_answer(cycle, START, {"type": "http.response.body", "body": BODY}))
    (answer,) = [e for e in transport.events if isinstance(e, bytes)]
    assert b"connection: close\r\n" in answer
    assert closed == [True] and "close" not in transport.events
