"""The HTTP/1.1 connection layer of `manacalc serve`: uvicorn's httptools protocol, with bounds of its own.

uvicorn's protocols trust the client more than a public service can. uvicorn's documented options do part
of the work and ``manacalc serve`` sets them (``app.cli.server_options``: ``timeout_keep_alive``,
``backlog``, ``ws="none"``, no forwarded headers); what no option covers on httptools is done here, by the
overrides listed in ``OVERRIDES`` with their reasons (a test fails when the installed uvicorn lacks one):

- **A head deadline.** A connection must send a complete request head (request line and headers) within
  ``request_head_timeout_s`` of being ready for one (accepted, or its previous answer sent). Data does
  not reset the clock, so a head trickled one byte a second is cut as surely as a silent socket. A
  connection that sent nothing is closed quietly (an idle keep-alive connection ends so); one that sent
  part of a head gets a 408 problem first.
- **Idle and slow connections never crowd out requests.** uvicorn's ``limit_concurrency`` answers every
  request with a 503 once that many connections are open, idle ones included. Here, connections and
  requests are counted apart. Past ``max_connections`` open connections, the one that has been
  *evictable* longest is closed to make room: a connection waiting for a head, one whose request body is
  still arriving, or one closing after an answer given before its body ended. Only when every other
  connection is running a request whose body has arrived does the newcomer stay over the limit: its
  request is then answered a 503 problem, unless it asks for ``/healthz``. Past ``max_requests``
  requests in flight, a request is answered a 503 problem with ``Retry-After``; requests still receiving
  their body do not count, and ``/healthz`` is never refused for lack of slots.
- **A header cap that holds however the head arrives.** httptools (unlike h11) has no limit of its own
  and buffers a header value of any size. The bytes of the head are counted as they arrive, in one write
  or trickled: past ``max_header_bytes`` with no end of head in sight, the connection gets a 431 problem
  and is closed. The parsed request line and headers are counted as well, so a head that arrived with
  other data (pipelined) is held to the same cap. **Trailers** of a chunked body count against the same
  cap (the bytes of a chunked body that are not body: chunk lines and trailers), and are dropped, never
  added to the request's headers.
- **Bounded chunking.** A chunked body may have at most ``max_body_chunks`` chunks (one-byte chunks
  multiply what a body costs to read); past it, a 400 problem.
- **Bounded pipelining.** At most ``max_pipelined`` requests wait behind the one being answered. The
  request past them is not read: the last waiting one is answered with ``Connection: close``, the
  connection closes after it, and what the client sent beyond is left unread (a client must be ready to
  send again requests a closed connection did not answer, RFC 9112 section 9.3.2).
- **Answers given before the body ended** (a 413, a 429, a GET with a body) close the connection: the
  answer says ``Connection: close``, the server shuts its side and reads (and drops) what the client
  still sends for ``linger_s`` at most, so that the client can read the answer, then closes.
- **Answers left unread.** A connection whose writes are paused (the client does not read) for
  ``send_timeout_s``, or that has not sent all it must within ``send_timeout_s`` of being closed, is
  aborted: a closing connection holds no bytes for ever.
- **Request smuggling and codings.** A request with both ``Content-Length`` and ``Transfer-Encoding`` is
  refused with a 400 (RFC 9112 section 6.3: such a message "ought to be handled as an error"), and so is a
  message the parser cannot read. A transfer coding other than ``chunked`` (``gzip, chunked``) is a 501
  (RFC 9112 section 6.1: "A server that receives a request message with a transfer coding it does not
  understand SHOULD respond with 501 (Not Implemented)").

Every answer given here, below the application, is ``application/problem+json``, as the application's
own (``app.errors``), and each one closes the connection.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

import httptools
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

ALWAYS_SERVED = frozenset({b"/healthz"})
"""Paths never refused for lack of request or connection slots (the liveness probe)."""

_HEAD_ENDS = (b"\r\n\r\n", b"\n\n")
_CONTENT_LENGTH, _TRANSFER_ENCODING = 1, 2
_FRAMING = {b"content-length": _CONTENT_LENGTH, b"transfer-encoding": _TRANSFER_ENCODING}
_CHUNK_LINE_BYTES = 32
"""What a chunk's size line and its closing CRLF may take beside the head cap (a size, no extension)."""

OVERRIDES: tuple[tuple[str, str], ...] = (
    ("__init__", "the protocol's limits and per-connection state"),
    ("connection_made", "start the head deadline; past max_connections, evict the longest evictable"),
    ("connection_lost", "cancel the deadlines; leave the tables of evictable and body-receiving ones"),
    (
        "data_received",
        "count the head's raw bytes (httptools buffers a header of any size) and a chunked body's"
        " non-body bytes (trailers); drop data once refused or closing; stop the parser at a refusal"
        " (uvicorn's would answer a plain-text 400)",
    ),
    ("on_header", "count the parsed head; note CL/TE; drop and count trailers (uvicorn adds them)"),
    (
        "on_headers_complete",
        "the parsed head cap, CL+TE (400), codings (501), the pipelining bound, over-limit newcomers",
    ),
    ("on_message_complete", "the next bytes are a head again; the body no longer arriving"),
    ("on_response_complete", "restart the head deadline once every answer is out"),
    ("pause_writing", "start the send deadline: a client that does not read is dropped"),
    ("resume_writing", "stop the send deadline"),
    ("send_400_response", "a 400 problem+json (uvicorn's is plain text)"),
    (
        "_start_asgi_task",
        "request slots that body-receiving requests do not take, /healthz always; corked writes; an"
        " answer given before the body ended closes the connection",
    ),
)
"""Every method of uvicorn's ``HttpToolsProtocol`` this class overrides, with why; ``on_chunk_header``
(httptools' callback, which uvicorn does not define) counts chunks. tests/api/test_private_api.py fails
when the installed uvicorn lacks one of them, or when this class overrides one not listed here."""

USED_ATTRIBUTES: tuple[str, ...] = (
    "connections",
    "tasks",
    "cycle",
    "pipeline",
    "flow",
    "parser",
    "headers",
    "url",
    "transport",
    "server_state",
    "timeout_keep_alive_task",
)
"""The attributes of uvicorn's protocol read here (checked by the same test)."""

CYCLE_ATTRIBUTES: tuple[str, ...] = (
    "more_body",
    "response_complete",
    "keep_alive",
    "disconnected",
    "message_event",
    "response_started",
    "transport",
    "send",
    "body",
    "scope",
)
"""The attributes of uvicorn's ``RequestResponseCycle`` read or replaced here and in ``corked_writes``."""


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The connection layer's bounds (``manacalc serve`` reads them from the settings)."""

    max_header_bytes: int = 16 * 1024
    request_head_timeout_s: float = 5.0
    max_connections: int = 1000
    """Open connections per worker; 0: no limit."""
    max_requests: int = 1000
    """Requests in flight per worker (not counting those still receiving their body); 0: no limit."""
    send_timeout_s: float = 10.0
    """Seconds a client may leave its answer unread (writes paused, or a close not flushed) before it is
    dropped."""
    max_pipelined: int = 4
    """Requests read ahead on one connection, waiting behind the one being answered."""
    max_body_chunks: int = 4096
    """Chunks in one chunked request body."""
    linger_s: float = 2.0
    """Seconds a connection answered before its body ended keeps reading (and dropping) that body."""

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


@dataclass
class _Shared:
    """What the connections of one server share."""

    evictable: OrderedDict[ManacalcHttpToolsProtocol, None] = field(default_factory=OrderedDict)
    """Connections that may be closed to make room, the longest evictable first."""
    receiving: set[ManacalcHttpToolsProtocol] = field(default_factory=set)
    """Connections whose running request's body is still arriving."""


def _shared_of(server_state: ServerState) -> _Shared:
    shared: _Shared | None = getattr(server_state, "manacalc_shared", None)
    if shared is None:
        shared = _Shared()
        server_state.manacalc_shared = shared  # type: ignore[attr-defined]
    return shared


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


_Refusal = tuple[int, str, str, str, tuple[tuple[bytes, bytes], ...]]
"""A refusal's status, problem type slug, title, detail and extra headers."""


class _Stop(Exception):
    """Raised from a parser callback to stop reading this connection (it has been answered or closed)."""


class ManacalcHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with deadlines, caps, fair connection limits and no request smuggling
    (see the module). Configured by ``limits`` when a subclass sets it (tests), else by the process's
    settings."""

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
        self.bounds = limits
        self.max_header_bytes = limits.max_header_bytes
        # uvicorn's own check counts idle connections against requests: replaced by _start_asgi_task's.
        self.limit_concurrency = None
        self._shared = _shared_of(server_state)
        self._head_timer: asyncio.TimerHandle | None = None
        self._send_timer: asyncio.TimerHandle | None = None
        self._close_timer: asyncio.TimerHandle | None = None
        self._reading_head = True  # the next bytes belong to a request head
        self._head_bytes = 0  # bytes received since the head began (raw, as they arrive)
        self._tail = b""  # the last bytes received, to find an end of head split across two writes
        self._parsed_head_bytes = 0  # header lines as parsed
        self._framing = 0  # which of Content-Length (1) and Transfer-Encoding (2) the head has
        self._codings: list[bytes] = []  # the Transfer-Encoding values
        self._receiving = False  # a running request's body is still arriving
        self._chunks = 0  # chunks of the body being read
        self._overhead = 0  # bytes of a chunked body that were not body (chunk lines, trailers)
        self._over_limit = False  # made past max_connections with nothing to evict
        self._done = False  # refused, closing or lingering: no more requests are read
        self._lingering = False

    # --- connection life --------------------------------------------------------------------------

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._await_head()
        if self.bounds.max_connections and len(self.connections) > self.bounds.max_connections:
            self._make_room()

    def connection_lost(self, exc: Exception | None) -> None:
        self._leave()
        for timer in (self._send_timer, self._close_timer):
            if timer is not None:
                timer.cancel()
        self._send_timer = self._close_timer = None
        super().connection_lost(exc)

    def _leave(self) -> None:
        """Out of every table: waiting for a head, evictable, receiving a body."""
        self._shared.evictable.pop(self, None)
        self._shared.receiving.discard(self)
        self._receiving = False
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _make_room(self) -> None:
        """Over ``max_connections``: close the connection evictable longest. If none is, this one stays
        over the limit: only ``/healthz`` is served on it (and it is the first to be evicted)."""
        for victim in self._shared.evictable:
            if victim is not self:
                victim._close()
                return
        self._over_limit = True

    # A client that stops reading its answer pauses our writes; the request's task then waits for it, a
    # slot of max_requests held for as long as the client likes. Dropped after send_timeout_s instead.

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_timer is None:
            self._send_timer = self.loop.call_later(self.bounds.send_timeout_s, self._abort, "unread")

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._send_timer is not None:
            self._send_timer.cancel()
            self._send_timer = None

    def _abort(self, why: str) -> None:
        self._send_timer = self._close_timer = None
        if why == "unread":
            logger.info(
                "dropped a connection that left its answer unread for %g s", self.bounds.send_timeout_s
            )
        self.transport.abort()  # close() would wait to flush what the client does not read

    def _close(self) -> None:
        """Close, and abort if what is still to send has not gone out within ``send_timeout_s``."""
        self._done = True
        self._leave()
        if self._close_timer is None:
            self._close_timer = self.loop.call_later(self.bounds.send_timeout_s, self._abort, "close")
        self.transport.close()

    def _close_after_answer(self) -> None:
        """The request's cycle closes the connection after an answer: if the request body is still
        arriving, shut our side, read and drop the rest for ``linger_s``, then close (the client reads
        the answer instead of a reset); else close."""
        if not self._receiving or self._done or not self.transport.can_write_eof():
            self._close()
            return
        self._done = self._lingering = True
        self._shared.receiving.discard(self)
        self._receiving = False
        self._shared.evictable.pop(self, None)
        self._shared.evictable[self] = None
        self.transport.write_eof()
        self._close_timer = self.loop.call_later(self.bounds.linger_s, self._abort, "linger")
        self.flow.resume_reading()

    def _await_head(self) -> None:
        """The connection is ready for a request head: start its clock."""
        self._reading_head = True
        self._head_bytes = 0
        self._tail = b""
        self._shared.evictable.pop(self, None)
        self._shared.evictable[self] = None
        if self._head_timer is not None:
            self._head_timer.cancel()
        self._head_timer = self.loop.call_later(self.bounds.request_head_timeout_s, self._head_timed_out)

    def _head_timed_out(self) -> None:
        self._head_timer = None
        if self._done or not self._reading_head or self._busy():
            return
        if self._head_bytes == 0:
            self._close()  # an idle connection: closed as an idle keep-alive connection is
            return
        self._refuse(
            408,
            "request-timeout",
            "Request Timeout",
            "The request head (request line and headers) was not complete within"
            f" {self.bounds.request_head_timeout_s:g} s.",
        )

    def _refuse(
        self, status: int, slug: str, title: str, detail: str, headers: tuple[tuple[bytes, bytes], ...] = ()
    ) -> None:
        """Answer a problem below the application (unless an answer has begun) and close the connection."""
        if self._done:
            return
        if status not in (503, 408):
            logger.info("refused a connection's request with %d: %s", status, detail)
        cycle = self.cycle
        answering = cycle is not None and not cycle.response_complete
        if answering and cycle.response_started:
            self._close()  # an answer is on its way: cut it, a problem after it would garble it
            return
        if answering:  # its application waits for a body that will not come
            cycle.disconnected = True
            cycle.message_event.set()
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
        self._close()

    # --- reading --------------------------------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        if self._done:
            if not self._lingering:
                self.flow.pause_reading()  # refused or closing: nothing more is read
            return
        if self._reading_head:
            room = self.max_header_bytes - self._head_bytes
            if len(data) > room:
                # Past the cap unless the head ends within it (what follows may be a body).
                window = self._tail + data[: max(room, 0) + 4]
                if not any(end in window for end in _HEAD_ENDS):
                    self._head_too_large()
                    return
            self._head_bytes += len(data)
            self._tail = (self._tail + data[-3:])[-3:]
        if self.timeout_keep_alive_task is not None:  # uvicorn's keep-alive deadline: data came
            self.timeout_keep_alive_task.cancel()
            self.timeout_keep_alive_task = None
        chunked = self._receiving and self._framing == _TRANSFER_ENCODING
        cycle = self.cycle
        before = len(cycle.body) if chunked else 0
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            pass  # no protocol to switch to (ws="none"): the request is served as an ordinary one
        except httptools.HttpParserError:
            if not self._done:
                self.send_400_response("Invalid HTTP request received.")
            return
        if chunked and self._receiving and cycle is self.cycle and not self._done:
            # Still in the same chunked body: what it received that is not body is chunk lines and trailers.
            self._overhead += len(data) - (len(cycle.body) - before)
            if self._overhead > self.max_header_bytes + _CHUNK_LINE_BYTES * self._chunks:
                self._head_too_large("trailers and chunk lines")

    def _head_too_large(self, what: str = "request line and headers") -> None:
        error = HeaderTooLarge(f"The {what} are larger than {self.max_header_bytes} bytes.")
        self._refuse(error.status, error.type_slug, error.title, error.detail)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._parsed_head_bytes += len(name) + len(value) + 4  # ": " and CRLF
        if not self._reading_head:  # a trailer: counted, then dropped (RFC 9110 section 6.5.1)
            if self._parsed_head_bytes > self.max_header_bytes:
                self._head_too_large("trailers")
                raise _Stop
            return
        super().on_header(name, value)
        framing = _FRAMING.get(self.headers[-1][0])  # the name, lowercased by uvicorn
        if framing:
            self._framing |= framing
            if framing == _TRANSFER_ENCODING:
                self._codings.append(value)

    def on_headers_complete(self) -> None:
        self._reading_head = False
        self._shared.evictable.pop(self, None)
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None
        self._parsed_head_bytes += len(self.url)  # trailers, if any, count on top of the head
        refusal = self._head_refusal()
        if refusal is not None:
            self._refuse(*refusal)
            raise _Stop
        cycle = self.cycle
        if (
            cycle is not None
            and not cycle.response_complete
            and len(self.pipeline) >= self.bounds.max_pipelined
        ):
            # Enough read ahead: the last waiting request closes the connection; this one is not read.
            (self.pipeline[0][0] if self.pipeline else cycle).keep_alive = False
            self._done = True
            self.flow.pause_reading()
            raise _Stop
        self._chunks = self._overhead = 0
        self._receiving = True
        super().on_headers_complete()
        self._shared.receiving.add(self)
        self._shared.evictable[self] = None

    def _head_refusal(self) -> _Refusal | None:
        """The problem a complete head is refused with, if any."""
        if self._parsed_head_bytes > self.max_header_bytes:
            error = HeaderTooLarge(
                f"The request line and headers are larger than {self.max_header_bytes} bytes."
            )
            return (error.status, error.type_slug, error.title, error.detail, ())
        if self._framing == _CONTENT_LENGTH | _TRANSFER_ENCODING:
            return (
                400,
                "bad-request",
                "Bad Request",
                "A request may not carry both Content-Length and Transfer-Encoding (RFC 9112 section 6.3).",
                (),
            )
        if self._codings:
            codings = [c.strip().lower() for value in self._codings for c in value.split(b",")]
            if codings != [b"chunked"]:
                if all(c == b"chunked" for c in codings):
                    return (400, "bad-request", "Bad Request", "A body may be chunked only once.", ())
                unknown = ", ".join(c.decode("latin-1")[:40] for c in codings if c != b"chunked")
                return (
                    501,
                    "not-implemented",
                    "Not Implemented",
                    f"Transfer-Encoding {unknown!r} is not applied here; send the body chunked or with"
                    " Content-Length.",
                    (),
                )
        if (
            self._over_limit
            and len(self.connections) > self.bounds.max_connections
            and self.url.partition(b"?")[0] not in ALWAYS_SERVED
        ):
            return (
                503,
                "service-unavailable",
                "Service Unavailable",
                f"Too many connections in progress; retry in {BUSY_RETRY_AFTER_S} s.",
                ((b"retry-after", str(BUSY_RETRY_AFTER_S).encode("ascii")),),
            )
        return None

    def on_chunk_header(self) -> None:
        self._chunks += 1
        if self._chunks > self.bounds.max_body_chunks:
            self._refuse(
                400,
                "bad-request",
                "Bad Request",
                f"A chunked request body may have at most {self.bounds.max_body_chunks} chunks.",
            )
            raise _Stop

    def on_message_complete(self) -> None:
        super().on_message_complete()
        # What arrives next is the next request's head (pipelined, or after this answer).
        self._parsed_head_bytes = self._framing = 0
        self._codings = []
        self._receiving = False
        self._shared.receiving.discard(self)
        self._shared.evictable.pop(self, None)
        self._reading_head = True
        self._head_bytes = 0
        self._tail = b""

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self._done and self._reading_head and not self._busy():
            self._await_head()

    def _busy(self) -> bool:
        """Whether a request read on this connection is not answered yet (pipelined ones included)."""
        return self.cycle is not None and not self.cycle.response_complete

    def send_400_response(self, msg: str) -> None:
        """A message the parser cannot read: a 400 problem (uvicorn's is plain text)."""
        self._refuse(400, "bad-request", "Bad Request", "The request is not valid HTTP/1.1.")

    # --- requests in flight ------------------------------------------------------------------------

    def _start_asgi_task(self, cycle: Any, app: Any) -> None:
        limit = self.bounds.max_requests
        if (
            limit
            and len(self.tasks) - len(self._shared.receiving) >= limit
            and cycle.scope["raw_path"] not in ALWAYS_SERVED
        ):
            logger.warning("%d requests in progress: answering 503", len(self.tasks))
            app = _busy_app
        cork_answers(cycle, self._close_after_answer)  # app.api.corked_writes
        super()._start_asgi_task(cycle, app)
