"""``json_depth`` drops a body's strings with a split when it has no backslash (issue 27: the regular
expression held the event loop 25 to 45 ms on a 1 MB body); the split must drop exactly what it drops."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.api.limits import _STRING, _outside_strings, json_depth

pieces = st.lists(
    st.sampled_from([b'"', b"[", b"]", b"{", b"}", b"a", b",", b" ", b"\\", b"\xc3\xa9"]), max_size=60
)


@given(pieces)
def test_the_split_drops_what_the_string_pattern_drops(parts: list[bytes]) -> None:
    body = b"".join(parts)
    assert _outside_strings(body) == _STRING.sub(b"", body)


def test_brackets_in_strings_do_not_count_on_a_large_body() -> None:
    permanent = b'{"id":"[[[[","card":{"keywords":[0,"{{{{"]}}'
    body = b'{"board":{"permanents":[' + b",".join([permanent] * 10_000) + b"]}}"
    assert json_depth(body) == 6  # body, board, permanents, a permanent, its card, keywords
