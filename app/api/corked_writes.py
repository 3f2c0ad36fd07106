"""One write per answer: the status line and headers go out with the first piece of the body.

uvicorn's HTTP/1.1 cycle writes an answer's head as soon as the application starts it, and the body as a
second write: two ``send`` system calls and, with ``TCP_NODELAY``, two packets for every small JSON answer,
each woken for and read apart by the client. A profile of ``manacalc serve`` under load put a large share
of the worker's time in sending answers. Here the head is held until the body's first piece (or the end
of the answer, or the connection's close) and the two are written together: the bytes on the wire are
the same, in the same order.

Only the head is held, and only while the application sends its answer: ``100 Continue`` (written while
the request body is read) and every later piece of a streamed body go out as they come.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

Send = Callable[[Any], Awaitable[None]]


class CorkedTransport:
    """A transport whose writes are held while ``corked`` and written as one when it is released."""

    __slots__ = ("_held", "closer", "corked", "transport")

    def __init__(self, transport: asyncio.Transport, closer: Callable[[], None] | None = None) -> None:
        self.transport = transport
        self.corked = False
        self._held: list[bytes] = []
        self.closer = closer

    def write(self, data: bytes) -> None:
        if self.corked:
            self._held.append(data)
        else:
            self.transport.write(data)

    def release(self) -> None:
        """Write what was held, as one write, and stop holding."""
        self.corked = False
        if self._held:
            held, self._held = self._held, []
            self.transport.write(held[0] if len(held) == 1 else b"".join(held))

    def close(self) -> None:
        self.release()  # what was held goes out before the close, as it would have
        if self.closer is not None:
            self.closer()
        else:
            self.transport.close()

    def is_closing(self) -> bool:
        return self.transport.is_closing()


def cork_answers(cycle: Any, closer: Callable[[], None] | None = None) -> None:
    """Give uvicorn's request-response ``cycle`` a corked transport and a ``send`` that holds the answer's
    head until the first ``http.response.body`` message has been written after it.

    ``closer`` closes the connection when the cycle does (``app.api.http_server``'s deadlines); an answer
    started before the request's body has all arrived says ``Connection: close`` and closes it."""
    corked = CorkedTransport(cycle.transport, closer)
    cycle.transport = corked
    send: Send = cycle.send

    async def send_corked(message: Any) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            if cycle.more_body:  # answered before the body ended: the connection closes after it
                cycle.keep_alive = False
            corked.corked = True
            try:
                await send(message)
            except BaseException:
                corked.release()
                raise
            return
        try:
            await send(message)
        finally:
            if corked.corked and kind == "http.response.body":
                corked.release()

    cycle.send = send_corked
