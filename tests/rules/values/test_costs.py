"""ManaCost: parsing, canonical printing, mana value (CR 202.3), colors, equality, bounds."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.rules.errors import ManaCostSyntaxError
from app.rules.values.costs import MAX_COST_LENGTH, ManaCost
from app.rules.values.symbols import MAX_GENERIC, all_symbols, color_order

P = ManaCost.parse


@pytest.mark.parametrize(
    ("text", "canonical", "mana_value", "colors"),
    [
        ("{2}{W/U}{G/P}", "{2}{W/U}{G/P}", 4, ("W", "U", "G")),
        ("{W}{1}", "{1}{W}", 2, ("W",)),
        ("{1}{1}{R}", "{2}{R}", 3, ("R",)),
        ("{R}{X}{X}", "{X}{X}{R}", 1, ("R",)),  # CR 202.3e: X is 0 off the stack
        ("{Z}{Y}{X}", "{X}{Y}{Z}", 0, ()),
        ("{2/W}{2/W}{2/W}", "{2/W}{2/W}{2/W}", 6, ("W",)),  # CR 202.3f: the larger half counts
        ("{C/G}", "{C/G}", 1, ("G",)),
        ("{W/U/P}", "{W/U/P}", 1, ("W", "U")),
        ("{HW}", "{HW}", 0.5, ("W",)),
        ("{½}{½}", "{½}{½}", 1, ()),
        ("{1000000}", "{1000000}", 1_000_000, ()),
        ("{S}{C}", "{S}{C}", 2, ()),
        ("", "{0}", 0, ()),
        ("{0}", "{0}", 0, ()),
        ("{U/W}", "{W/U}", 1, ("W", "U")),
        ("{w}{u}", "{W}{U}", 2, ("W", "U")),
    ],
)
def test_parse_canonical_value_colors(
    text: str, canonical: str, mana_value: float, colors: tuple[str, ...]
) -> None:
    cost = P(text)
    assert str(cost) == canonical
    assert cost.mana_value == mana_value
    assert cost.colors == colors


def test_infinity_has_no_mana_value() -> None:
    cost = P("{∞}")
    assert cost.is_infinite and cost.mana_value is None and cost.half_value is None


def test_equality_is_by_multiset() -> None:
    assert P("{W}{1}") == P("{1}{W}")
    assert P("{W}{U}") == P("{U}{W}")
    assert hash(P("{W}{U}")) == hash(P("{U}{W}"))
    assert P("{W}") != P("{U}")
    assert P("{2}") != P("{1}{1}{1}")
    assert P("{1}{1}") == P("{2}")
    assert P("{0}") == ManaCost.zero()


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("2WW", "{2}{W}{W}"),
        ("2{g}2", "{4}{G}"),
        ("uw", "{W}{U}"),
        ("gw", "{G}{W}"),  # allied pair, clockwise from after the gap
        ("bw", "{W}{B}"),  # enemy pair steps two
        ("gu", "{G}{U}"),
        ("bwr", "{R}{W}{B}"),  # Mardu wedge
        ("gbw", "{W}{B}{G}"),  # Abzan wedge
        ("bur", "{U}{B}{R}"),  # Grixis shard
        ("x2r", "{X}{2}{R}"),
        ("{2} {W}", "{2}{W}"),
        ("{u/w}{2}", "{2}{W/U}"),
        ("{2}{W/U}{G/P}", "{2}{W/U}{G/P}"),  # braced input keeps its order
        ("{U}{W}", "{U}{W}"),
    ],
)
def test_parse_loose(text: str, canonical: str) -> None:
    assert str(ManaCost.parse_loose(text)) == canonical


@pytest.mark.parametrize(
    ("text", "symbol", "position"),
    [
        ("{2}{Q}", "{Q}", 3),
        ("{T}", "{T}", 0),
        ("{}", "{}", 0),
        ("{01}", "{01}", 0),
        ("{1000001}", "{1000001}", 0),
        ("{W}{U/U}", "{U/U}", 3),
        ("{2", "{2", 0),
        ("W", "W", 0),
        ("{W} {U}", " ", 3),
        ("{W}}", "}", 3),
        ("{1000000}{1}", "{1}", 9),  # numbers add up to at most {1000000}, so the sum prints parseably
    ],
)
def test_parse_errors_name_symbol_and_position(text: str, symbol: str, position: int) -> None:
    with pytest.raises(ManaCostSyntaxError) as info:
        P(text)
    assert info.value.symbol == symbol
    assert info.value.position == position
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("text", "symbol", "position"), [("2Q", "Q", 1), ("{2}{t}", "{t}", 3), ("WÜ", "Ü", 1)]
)
def test_parse_loose_errors(text: str, symbol: str, position: int) -> None:
    with pytest.raises(ManaCostSyntaxError) as info:
        ManaCost.parse_loose(text)
    assert (info.value.symbol, info.value.position) == (symbol, position)


def test_length_is_bounded() -> None:
    with pytest.raises(ManaCostSyntaxError):
        P("{1}" * (MAX_COST_LENGTH // 3 + 1))


def test_arithmetic() -> None:
    assert str(P("{1}{W}") + P("{2}{U}")) == "{3}{W}{U}"
    assert str(P("{X}{R}").with_variables(x=3)) == "{3}{R}"
    assert str(P("{X}{X}{R}").with_variables(x=2)) == "{4}{R}"
    assert str(P("{2}{W}").without(P("{W}").others[0])) == "{2}"
    assert P("{X}{W}{W}").count("{W}") == 2 and P("{X}{W}").count("X") == 1


def test_symbols_table_covers_cr_107_4() -> None:
    texts = {s.text for s in all_symbols()}
    for required in [
        "{W}",
        "{C}",
        "{S}",
        "{X}",
        "{W/U}",
        "{G/U}",
        "{2/W}",
        "{C/W}",
        "{W/P}",
        "{W/U/P}",
        "{HW}",
        "{∞}",
    ]:
        assert required in texts
    assert len([s for s in texts if s.count("/") == 1 and "P" not in s and s[1] not in "2C"]) == 10


def test_color_order_is_a_permutation() -> None:
    assert color_order({"G", "W"}) == ("G", "W")
    assert color_order({"W", "U", "B", "R", "G"}) == ("W", "U", "B", "R", "G")
    assert color_order({"U", "B", "R", "G"}) == ("U", "B", "R", "G")


symbol_texts = st.sampled_from([s.text for s in all_symbols()] + ["{0}", "{1}", "{2}", "{10}", "{15}"])


@given(st.lists(symbol_texts, max_size=12))
def test_repr_round_trips_and_canonical_is_stable(parts: list[str]) -> None:
    cost = P("".join(parts))
    assert eval(repr(cost)) == cost
    assert P(str(cost)) == cost
    assert str(P(str(cost))) == str(cost)


@given(st.lists(symbol_texts, max_size=12), st.randoms())
def test_order_does_not_change_equality(parts: list[str], rnd: object) -> None:
    shuffled = parts[:]
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert P("".join(parts)) == P("".join(shuffled))
    assert P("".join(parts)).sort_key == P("".join(shuffled)).sort_key


@given(st.text(max_size=60))
def test_parser_never_fails_with_another_exception(text: str) -> None:
    for parse in (ManaCost.parse, ManaCost.parse_loose):
        try:
            cost = parse(text)
        except ManaCostSyntaxError as exc:
            assert 0 <= exc.position <= len(text)
        else:
            assert P(str(cost)) == cost


# Text made of cost syntax (braces, slashes, digits, symbol letters in both cases, the Un symbols, and
# some noise) reaches the parser's corners far more often than arbitrary Unicode does.
cost_fragments = st.sampled_from(
    [
        *"{}/0123456789WUBRGCSXYZPHwubrgcsxyzph½∞ \t-+é",
        "{W/U}",
        "{2/W}",
        "{G/P}",
        "{W/U/P}",
        "{HW}",
        "{1000000}",
    ]
)


@given(st.lists(st.one_of(cost_fragments, symbol_texts), max_size=40).map("".join))
def test_parser_fuzz_on_cost_syntax_names_the_offending_text(text: str) -> None:
    """Either a cost whose canonical form parses back to it, or ManaCostSyntaxError whose ``symbol`` is
    the text found at ``position``; never another exception."""
    for parse in (ManaCost.parse, ManaCost.parse_loose):
        try:
            cost = parse(text)
        except ManaCostSyntaxError as exc:
            assert 0 <= exc.position < max(1, len(text))
            assert exc.symbol and text.startswith(exc.symbol, exc.position), (text, exc.symbol, exc.position)
        else:
            assert cost.generic <= MAX_GENERIC
            assert P(str(cost)) == cost
            assert cost.mana_value is None or cost.mana_value >= 0


@given(st.text(min_size=MAX_COST_LENGTH + 1, max_size=MAX_COST_LENGTH + 50, alphabet="{W}1"))
def test_parser_refuses_overlong_text_with_its_own_error(text: str) -> None:
    for parse in (ManaCost.parse, ManaCost.parse_loose):
        with pytest.raises(ManaCostSyntaxError):
            parse(text)
