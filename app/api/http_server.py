"""The HTTP/1.1 connection layer of `manacalc serve`: uvicorn's httptools protocol, with bounds of its own.

uvicorn's protocols trust the client more than a public service can:

- **A head deadline.** A connection must send a complete request head (request line and headers) within
  ``request_head_timeout_s`` of being ready for one (accepted, or its previous answer sent). Data does
  not reset the clock, so a head trickled one byte a second is cut as surely as a silent socket. A
  connection that sent nothing is closed quietly (an idle keep-alive connection ends so); one that sent
  part of a head gets a 408 problem first.
- **Idle connections never crowd out requests.** uvicorn answers every request with a plain-text 503 once
  ``limit_concurrency`` connections are open, idle ones included: 1,000 silent sockets took the service
  down. Here, connections and requests are counted apart. Past ``max_connections`` open connections, the
  one that has waited longest for a head is closed to make room (an idle or slow one: a connection running
  a request is never closed for this); only when every connection is running a request is the newcomer
  refused, with a 503 problem. Past ``max_requests`` requests in flight, a request is answered a 503
  problem with ``Retry-After``.
- **A header cap that holds however the head arrives.** httptools (unlike h11) has no limit of its own
  and buffers a header value of any size. The bytes of the head are counted as they arrive, in one write
  or trickled: past ``max_header_bytes`` with no end of head in sight, the connection gets a 431 problem
  and is closed. The parsed request line and headers are counted as well, so a head that arrived with
  other data (pipelined) is held to the same cap.
- **Answers left unread.** A client that stops reading pauses the server's writes, and the request's
  task waits for it, holding a slot: after ``send_timeout_s`` (the body deadline) the connection is dropped.
- **Request smuggling.** A request with both ``Content-Length`` and ``Transfer-Encoding`` is refused with a
  400 (RFC 9112 section 6.3: such a message "ought to be handled as an error"), and so is a message the
  parser cannot read.

Every answer given here, below the application, is ``application/problem+json``, as the application's
own (``app.errors``), and each one closes the connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from uvicorn.protocols.http.httptools_impl import STATUS_LINE, HttpToolsProtocol

from app.api.corked_writes import cork_answers
from app.errors import PROBLEM_MEDIA_TYPE, HeaderTooLarge, problem_body

if TYPE_CHECKING:
    from uvicorn.config import Config
    from uvicorn.server import ServerState

    from app.config import Settings

logger = logging.getLogger("manacalc.http")

BUSY_RETRY_AFTER_S = 1
"""``Retry-After`` of a 503 for too many requests or connections: the pressure is usually gone in a second."""

_HEAD_ENDS = (b"\r\n\r\n", b"\n\n")
_FRAMING = {b"content-length": 1, b"transfer-encoding": 2}
_BOTH_FRAMINGS = 3


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The connection layer's bounds (``manacalc serve`` reads them from the settings)."""

    max_header_bytes: int = 16 * 1024
    request_head_timeout_s: float = 5.0
    max_connections: int = 1000
    """Open connections per worker; 0: no limit."""
    max_requests: int = 1000
    """Requests in flight per worker; 0: no limit."""
    send_timeout_s: float = 10.0
    """Seconds a client may leave its answer unread (the server's writes paused) before it is dropped."""

    @classmethod
    def from_settings(cls, settings: Settings) -> ServerLimits:
        return cls(
            max_header_bytes=settings.max_header_bytes,
            request_head_timeout_s=settings.request_head_timeout_s,
            max_connections=settings.max_concurrent_connections,
            max_requests=settings.max_concurrent_connections,
            send_timeout_s=settings.body_read_timeout_s,
        )


def problem_bytes(
    status: int,
    type_slug: str,
    title: str,
    detail: str,
    *,
    headers: tuple[tuple[bytes, bytes], ...] = (),
    default_headers: list[tuple[bytes, bytes]] | None = None,
) -> bytes:
    """A whole HTTP/1.1 problem+json answer that closes the connection, for the protocol to write."""
    body = json.dumps(
        problem_body(status=status, type_slug=type_slug, title=title, detail=detail, instance=None),
        separators=(",", ":"),
    ).encode("utf-8")
    lines = [STATUS_LINE[status]]
    for name, value in [*(default_headers or ()), *headers]:
        lines += [name, b": ", value, b"\r\n"]
    lines += [
        b"content-type: " + PROBLEM_MEDIA_TYPE.encode("ascii") + b"\r\n",
        b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
        b"connection: close\r\n\r\n",
        body,
    ]
    return b"".join(lines)


def _waiting_of(server_state: ServerState) -> OrderedDict[ManacalcHttpToolsProtocol, None]:
    """The connections of one server waiting for a request head, the longest waiting first."""
    waiting: OrderedDict[ManacalcHttpToolsProtocol, None] | None = getattr(
        server_state, "manacalc_waiting", None
    )
    if waiting is None:
        waiting = OrderedDict()
        server_state.manacalc_waiting = waiting  # type: ignore[attr-defined]
    return waiting


async def _busy_app(scope: Any, receive: Any, send: Any) -> None:
    """The answer to a request beyond ``max_requests`` in flight (uvicorn's own is plain text)."""
    body = json.dumps(
        problem_body(
            status=503,
            type_slug="service-unavailable",
            title="Service Unavailable",
            detail=f"Too many requests in progress; retry in {BUSY_RETRY_AFTER_S} s.",
            instance=scope.get("path"),
        ),
        separators=(",", ":"),
    ).encode("utf-8")
    headers = [
        (b"content-type", PROBLEM_MEDIA_TYPE.encode("ascii")),
        (b"content-length", str(len(body)).encode("ascii")),
        (b"retry-after", str(BUSY_RETRY_AFTER_S).encode("ascii")),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class ManacalcHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a head deadline, a header cap, fair connection limits and no
    request smuggling (see the module). Configured by ``limits`` when a subclass sets it (tests), else by
    the process's settings."""

    limits: ClassVar[ServerLimits | None] = None

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        limits = self.limits
        if limits is None:
            from app.config import get_settings

            limits = ServerLimits.from_settings(get_settings())
        self.max_header_bytes = limits.max_header_bytes
        self.head_timeout_s = limits.request_head_timeout_s
        self.max_connections = limits.max_connections
        self.max_requests = limits.max_requests
        # uvicorn's own check counts idle connections against requests: replaced by _start_asgi_task's.
        self.limit_concurrency = None
        self._waiting = _waiting_of(server_state)
        self._head_timer: asyncio.TimerHandle | None = None
        self._reading_head = True  # the next bytes belong to a request head
        self._head_bytes = 0  # bytes received since the head began (raw, as they arrive)
        self._tail = b""  # the last bytes received, to find an end of head split across two writes
        self._parsed_head_bytes = 0  # request line and headers as parsed
        self._framing = 0  # which of Content-Length (1) and Transfer-Encoding (2) the head has
        self._refused = False
        self.send_timeout_s = limits.send_timeout_s
        self._send_timer: asyncio.TimerHandle | None = None

    # --- connection life --------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()
        if self.max_connections and len(self.connections) > self.max_connections:
            self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_waiting()
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None
        super().connection_lost(exc)

    # A client that stops reading its answer pauses our writes; the request's task then waits for it, a
    # slot of max_requests held for as long as the client likes. Dropped after send_timeout_s instead.

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.send_timeout_s, self._send_timed_out)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def _send_timed_out(self) -> None:
        self._send_timer = None
        if not self.transport.is_closing():
            logger.info("dropped a connection that left its answer unread for %g s", self.send_timeout_s)
            self.transport.abort()  # close() would wait to flush what the client does not read

    def _make_room(self) -> None:
        """Over ``max_connections``: close the connection that has waited longest for a head; if every
        other connection is running a request, refuse this one."""
        for victim in self._waiting:
            if victim is not self:
                victim._stop_waiting()
                victim.transport.close()
                return
        self._refuse(
            503,
            "service-unavailable",
            "Service Unavailable",
            f"Too many connections in progress; retry in {BUSY_RETRY_AFTER_S} s.",
            headers=((b"retry-after", str(BUSY_RETRY_AFTER_S).encode("ascii")),),
        )

    def _await_head(self) -> None:
        """The connection is ready for a request head: start its clock."""
        self._reading_head = True
        self._head_bytes = 0
        self._tail = b""
        self._waiting.pop(self, None)
        self._waiting[self] = None
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.head_timeout_s, self._head_timed_out)

    def _stop_waiting(self) -> None:
        self._waiting.pop(self, None)
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_timed_out(self) -> None:
        self._head_timer = None
        self._waiting.pop(self, None)
        if self.transport.is_closing() or not self._reading_head or self._busy():
            return
        if self._head_bytes == 0:
            self.transport.close()  # an idle connection: closed as an idle keep-alive connection is
            return
        self._refuse(
            408,
            "request-timeout",
            "Request Timeout",
            f"The request head (request line and headers) was not complete within {self.head_timeout_s:g} s.",
        )

    def _refuse(
        self, status: int, slug: str, title: str, detail: str, headers: tuple[tuple[bytes, bytes], ...] = ()
    ) -> None:
        """Answer a problem below the application and close the connection."""
        if self._refused:
            return
        self._refused = True
        self._stop_waiting()
        if status != 503 and status != 408:
            logger.info("refused a connection's request with %d: %s", status, detail)
        if not self.transport.is_closing():
            self.transport.write(
                problem_bytes(
                    status,
                    slug,
                    title,
                    detail,
                    headers=headers,
                    default_headers=self.server_state.default_headers,
                )
            )
            self.transport.close()

    # --- the head ----------------------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        if self._reading_head and data:
            room = self.max_header_bytes - self._head_bytes
            if len(data) > room:
                # Past the cap unless the head ends within it (what follows may be a body).
                window = self._tail + data[: max(room, 0) + 4]
                if not any(end in window for end in _HEAD_ENDS):
                    self._head_too_large()
                    return
            self._head_bytes += len(data)
            self._tail = (self._tail + data[-3:])[-3:]
        super().data_received(data)

    def _head_too_large(self) -> None:
        error = HeaderTooLarge(f"The request line and headers are larger than {self.max_header_bytes} bytes.")
        self._refuse(error.status, error.type_slug, error.title, error.detail)

    def on_message_begin(self) -> None:
        self._parsed_head_bytes = 0
        self._framing = 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._parsed_head_bytes += len(url)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._parsed_head_bytes += len(name) + len(value) + 4  # ": " and CRLF
        super().on_header(name, value)
        framing = _FRAMING.get(self.headers[-1][0])  # the name, lowercased by uvicorn
        if framing:
            self._framing |= framing

    def on_headers_complete(self) -> None:
        self._reading_head = False
        self._stop_waiting()
        if self._refused:
            return
        if self._parsed_head_bytes > self.max_header_bytes:
            self._head_too_large()
            return
        if self._framing == _BOTH_FRAMINGS:
            self._refuse(
                400,
                "bad-request",
                "Bad Request",
                "A request may not carry both Content-Length and Transfer-Encoding (RFC 9112 section 6.3).",
            )
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if self._refused:
            return
        super().on_message_complete()
        # What arrives next is the next request's head (pipelined, or after this answer).
        self._reading_head = True
        self._head_bytes = 0
        self._tail = b""

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and self._reading_head and not self._busy():
            self._await_head()

    def _busy(self) -> bool:
        """Whether a request read on this connection is not answered yet (pipelined ones included)."""
        return self._refused or (self.cycle is not None and not self.cycle.response_complete)

    def send_400_response(self, msg: str) -> None:
        """A message the parser cannot read: a 400 problem (uvicorn's is plain text)."""
        self._refuse(400, "bad-request", "Bad Request", "The request is not valid HTTP/1.1.")

    # --- requests in flight ------------------------------------------------------------------------

    def _start_asgi_task(self, cycle: Any, app: Any) -> None:
        if self.max_requests and len(self.tasks) >= self.max_requests:
            logger.warning("%d requests in progress: answering 503", len(self.tasks))
            app = _busy_app
        cork_answers(cycle)  # the answer's head and body in one write (app.api.corked_writes)
        super()._start_asgi_task(cycle, app)
