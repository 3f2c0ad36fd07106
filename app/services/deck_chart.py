"""The deck analysis as a picture, with no plotting library: an SVG written from a fixed layout, and the
same data as a Vega-Lite specification for sites that draw their own charts.

Layout (every text box has a place of its own, whatever the deck's size):

- left, the mana curve: one bar per mana value 0 to 9 and a "10+" bar (a Gleemax counts at 1,000,000),
  whole-number copy counts printed above each bar, an axis whose ticks are whole numbers;
- under it, the deck's colors: per color its colored symbols (pips) and the lands that could produce it;
- right, a table with one row per spell, sorted from the least to the most likely to be cast on curve:
  a bar for the probability, the percentage, the turn, the name (cut to the column's width) and the cost.
  Rows are a fixed height apart, so names never print over each other; the picture grows with the deck.

Text is set in a monospace font so that the widths the layout reserves hold in any browser: a character of
the 11 px font is at most 0.62 em wide (DejaVu Sans Mono and Liberation Mono: 0.60 em).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any
from xml.sax.saxutils import escape

from app.rules.values.costs import ManaCost
from app.schemas.decks import CastabilityOut, DeckAnalyzeAnswer

COLOR_ORDER = ("W", "U", "B", "R", "G")
FILL = {"W": "#e9dfa8", "U": "#2f6fb3", "B": "#514a4a", "R": "#cc3d33", "G": "#2e8548"}
MULTICOLOR = "#c9a227"
COLORLESS = "#9a9a9a"
INK = "#1f2328"
FAINT = "#d0d7de"
FONT = "font-family:'DejaVu Sans Mono','Liberation Mono',Menlo,Consolas,monospace"
SIZE = 11
CHAR_W = SIZE * 0.62
"""The widest a character of the font may be, in pixels: what the layout reserves per character."""

WIDTH = 860
CURVE_X, CURVE_W, CURVE_TOP, CURVE_H = 48, 300, 56, 220
TABLE_X = 390
ROW_H = 18
LAST_VALUE = 10
"""Mana values from this one up share the last bar ("10+")."""

# Columns of the castability table: probability bar, percentage, turn, name, cost.
BAR_W = 80
PCT_X = TABLE_X + BAR_W + 6
TURN_X = PCT_X + 6 * CHAR_W + 4
NAME_X = TURN_X + 4 * CHAR_W + 4
COST_CHARS = 14
NAME_CHARS = int((WIDTH - 12 - NAME_X - COST_CHARS * CHAR_W - 8) // CHAR_W)
COST_X = NAME_X + NAME_CHARS * CHAR_W + 8


def _text(
    x: float, y: float, body: str, *, anchor: str = "start", weight: str = "normal", cls: str = ""
) -> str:
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-weight="{weight}"{klass}>'
        f"{escape(body)}</text>"
    )


def _cut(text: str, chars: int) -> str:
    """``text`` in at most ``chars`` characters, an ellipsis marking a cut."""
    return text if len(text) <= chars else text[: max(chars - 1, 1)] + "…"


def curve_buckets(curve: dict[str, int]) -> list[tuple[str, int]]:
    """Copies per mana value 0..9 and "10+" (half values count at the whole value below them), every bar
    from 0 to the highest present so the gaps show."""
    counts = [0] * (LAST_VALUE + 1)
    for key, copies in curve.items():
        try:
            value = float(key)
        except ValueError:  # not a number (the answer's keys are): nothing to place
            continue
        counts[LAST_VALUE if value >= LAST_VALUE else max(math.floor(value), 0)] += copies
    top = max((i for i, c in enumerate(counts) if c), default=0)
    return [(f"{i}+" if i == LAST_VALUE else str(i), counts[i]) for i in range(max(top, 1) + 1)]


def tick_step(top: int) -> int:
    """A whole-number axis step (1, 2, 5, 10, 20, 50...) giving at most 5 steps up to ``top``."""
    magnitude = 1
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude):
            if top <= 5 * step:
                return step
        magnitude *= 10


def spell_colors(cost: str) -> tuple[str, ...]:
    """The colors of a cost (CR 105.2), in W U B R G order; none for a colorless or unreadable cost."""
    try:
        colors = ManaCost.parse(cost).colors
    except ValueError:
        return ()
    return tuple(c for c in COLOR_ORDER if c in colors)


def _fill(colors: Iterable[str]) -> str:
    colors = tuple(colors)
    if not colors:
        return COLORLESS
    return FILL[colors[0]] if len(colors) == 1 else MULTICOLOR


def _color_key(colors: tuple[str, ...]) -> str:
    return colors[0] if len(colors) == 1 else ("C" if not colors else "multi")


def deck_colors(answer: DeckAnalyzeAnswer) -> list[str]:
    """The deck's colors: those its spells' costs use, in W U B R G order."""
    return [c for c in COLOR_ORDER if answer.pips.get(c, 0) > 0]


MODEL_NAMES = {
    "karsten-2022": "Karsten 2022 (every land enters untapped)",
    "tapped-lands": "tapped lands (a land entering tapped pays from the next turn)",
}


def row_label(c: CastabilityOut) -> str:
    """A row's name: the half or face cast (a split half, an Adventure, a modal face) with its card, or the
    card; both halves together for a fused split card (CR 702.102c)."""
    if c.fused:
        return f"{c.card.name} (fused)"
    if c.face is not None and c.face != c.card.name:
        return f"{c.face} ({c.card.name})"
    return c.card.name.split(" // ")[0]  # an adventurer's creature half, a modal card's front face


def clamp(p: float | None) -> float | None:
    """A probability within 0 to 1 (a chart never draws past 100%)."""
    return None if p is None else min(1.0, max(0.0, p))


def model_line(answer: DeckAnalyzeAnswer) -> str:
    return f"castability model: {MODEL_NAMES.get(answer.castability_model, answer.castability_model)}"


def sorted_castability(answer: DeckAnalyzeAnswer) -> list[CastabilityOut]:
    """Least likely first (those are the ones to act on), then by turn and name; unknown odds last."""
    return sorted(
        answer.castability,
        key=lambda c: (c.probability is None, c.probability or 0.0, c.turn, c.card.name),
    )


def render_svg(answer: DeckAnalyzeAnswer) -> bytes:
    """The chart as an SVG document (UTF-8)."""
    rows = sorted_castability(answer)
    colors = deck_colors(answer)
    buckets = curve_buckets(answer.curve)
    legend_top = CURVE_TOP + CURVE_H + 46
    left_bottom = legend_top + 20 + ROW_H * max(len(colors), 1) + 24
    table_bottom = CURVE_TOP + 22 + ROW_H * max(len(rows), 1) + 24
    # The footer dates the picture as the JSON answer is dated: a chart saved by a site says what it used.
    footer_y = int(max(left_bottom, table_bottom, 360)) + 18
    height = footer_y + 14
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}"'
        f' viewBox="0 0 {WIDTH} {height}" role="img" style="{FONT};font-size:{SIZE}px" fill="{INK}">',
        f"<title>{escape(_title(answer))}</title>",
        f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>',
        _text(12, 22, _title(answer), weight="bold", cls="title"),
    ]
    out += _curve(buckets)
    out += _colors(answer, colors, legend_top)
    out += _table(rows)
    out.append(_text(12, footer_y - 14, model_line(answer), cls="model"))
    out.append(_text(12, footer_y, _dated(answer), cls="footer"))
    out.append("</svg>")
    return "\n".join(out).encode()


def _dated(answer: DeckAnalyzeAnswer) -> str:
    """The rules edition and the catalogue's data version the answer was computed with."""
    return f"Comprehensive Rules of {answer.rules_edition}; card data {answer.data_version}"


def _title(answer: DeckAnalyzeAnswer) -> str:
    main = answer.counts.get("main", 0)
    return f"{main} cards, {answer.lands} lands: mana curve and castability on curve"


def _curve(buckets: list[tuple[str, int]]) -> list[str]:
    top = max((c for _, c in buckets), default=0)
    step = tick_step(max(top, 1))
    # At least one step above the highest bar: its count label stays inside the plot, under the caption.
    axis_top = step * (top // step + 1)
    scale = CURVE_H / axis_top
    bottom = CURVE_TOP + CURVE_H
    out = [_text(CURVE_X, CURVE_TOP - 16, "copies per mana value (main deck, nonland)", cls="label")]
    for tick in range(0, axis_top + 1, step):
        y = bottom - tick * scale
        out.append(
            f'<line x1="{CURVE_X}" x2="{CURVE_X + CURVE_W}" y1="{y:.1f}" y2="{y:.1f}" stroke="{FAINT}"/>'
        )
        out.append(_text(CURVE_X - 6, y + 4, str(tick), anchor="end", cls="tick"))
    slot = CURVE_W / len(buckets)
    for i, (label, copies) in enumerate(buckets):
        x = CURVE_X + i * slot
        h = copies * scale
        out.append(
            f'<rect x="{x + slot * 0.15:.1f}" y="{bottom - h:.1f}" width="{slot * 0.7:.1f}" height="{h:.1f}"'
            f' fill="#7a93a6"><title>mana value {escape(label)}: {copies} copies</title></rect>'
        )
        if copies:
            out.append(_text(x + slot / 2, bottom - h - 4, str(copies), anchor="middle", cls="count"))
        out.append(_text(x + slot / 2, bottom + 14, label, anchor="middle", cls="value"))
    out.append(_text(CURVE_X + CURVE_W / 2, bottom + 30, "mana value", anchor="middle", cls="label"))
    return out


def _colors(answer: DeckAnalyzeAnswer, colors: list[str], top: float) -> list[str]:
    out = [_text(CURVE_X, top, "colors: symbols in costs / lands producing it", cls="label")]
    if not colors:
        out.append(_text(CURVE_X, top + 20, "colorless", cls="color"))
    for i, color in enumerate(colors):
        y = top + 20 + i * ROW_H
        out.append(f'<rect x="{CURVE_X}" y="{y - 10:.1f}" width="12" height="12" fill="{FILL[color]}"/>')
        pips, sources = answer.pips.get(color, 0), answer.sources.get(color, 0)
        out.append(_text(CURVE_X + 18, y, f"{color}  {pips} symbols / {sources} sources", cls="color"))
    return out


def _table(rows: list[CastabilityOut]) -> list[str]:
    top = CURVE_TOP
    out = [
        _text(TABLE_X, top - 16, "chance to cast on curve, least likely first", cls="label"),
        _text(PCT_X, top, "odds", cls="head"),
        _text(TURN_X, top, "turn", cls="head"),
        _text(NAME_X, top, "spell", cls="head"),
        _text(COST_X, top, "cost", cls="head"),
    ]
    if not rows:
        out.append(_text(TABLE_X, top + 22, "no spell with a mana cost", cls="row"))
    for i, c in enumerate(rows):
        y = top + 22 + i * ROW_H
        p = clamp(c.probability)
        label = row_label(c)
        fill = _fill(spell_colors(c.cost))
        out.append(f'<rect x="{TABLE_X}" y="{y - 10:.1f}" width="{BAR_W}" height="12" fill="#f2f4f6"/>')
        if p is not None:
            out.append(
                f'<rect x="{TABLE_X}" y="{y - 10:.1f}" width="{BAR_W * p:.1f}" height="12" fill="{fill}"/>'
            )
        mark = "" if c.meets is None else (" " if c.meets else "!")
        pct = "?" if p is None else f"{p * 100:.0f}%"
        title = f"{label} {c.cost}: " + ("odds unknown" if p is None else f"{p * 100:.1f}% on turn {c.turn}")
        if c.meets is False:
            title += " (fewer sources than Karsten's table asks)"
        out.append(f'<g class="row"><title>{escape(title)}</title>')
        out.append(_text(PCT_X, y, f"{pct:>4}{mark}", cls="pct"))
        out.append(_text(TURN_X, y, f"T{c.turn}", cls="turn"))
        out.append(_text(NAME_X, y, _cut(label, NAME_CHARS), cls="name"))
        out.append(_text(COST_X, y, _cut(c.cost, COST_CHARS), cls="cost"))
        out.append("</g>")
    note_y = top + 22 + max(len(rows), 1) * ROW_H + 6
    out.append(_text(TABLE_X, note_y, "! fewer sources than Karsten's 2022 table asks", cls="note"))
    return out


def vega_lite(answer: DeckAnalyzeAnswer) -> dict[str, Any]:
    """A Vega-Lite v5 specification of the same chart, its data inline: the curve beside the castability
    of each spell, least likely first (for a site that draws with its own styles)."""
    curve = [{"mana_value": label, "copies": copies} for label, copies in curve_buckets(answer.curve)]
    spells = [
        {
            "label": row_label(c),
            "card": c.card.name,
            "face": c.face,
            "cost": c.cost,
            "turn": c.turn,
            "probability": clamp(c.probability),
            "meets": c.meets,
            "color": _color_key(spell_colors(c.cost)),
        }
        for c in sorted_castability(answer)
    ]
    palette = {**FILL, "C": COLORLESS}
    return {
        "$schema": "https://vega.github.io/schema/vega-lite/v5.json",
        "title": _title(answer),
        "usermeta": {
            "rules_edition": answer.rules_edition,
            "data_version": answer.data_version,
            "castability_model": answer.castability_model,
        },
        "hconcat": [
            {
                "title": "copies per mana value",
                "data": {"values": curve},
                "mark": {"type": "bar", "color": "#7a93a6"},
                "encoding": {
                    "x": {"field": "mana_value", "type": "ordinal", "sort": None, "title": "mana value"},
                    "y": {"field": "copies", "type": "quantitative", "axis": {"tickMinStep": 1}},
                },
            },
            {
                "title": {"text": "chance to cast on curve", "subtitle": model_line(answer)},
                "data": {"values": spells},
                "mark": "bar",
                "encoding": {
                    # One bar per castable part: the label names the half, so two halves never stack.
                    "y": {"field": "label", "type": "nominal", "sort": None, "title": None},
                    "x": {
                        "field": "probability",
                        "type": "quantitative",
                        "scale": {"domain": [0, 1]},
                        "axis": {"format": "%"},
                    },
                    "color": {
                        "field": "color",
                        "type": "nominal",
                        "scale": {
                            "domain": [*palette, "multi"],
                            "range": [*palette.values(), MULTICOLOR],
                        },
                        "legend": None,
                    },
                    "tooltip": [
                        {"field": "label", "title": "spell"},
                        {"field": "cost"},
                        {"field": "turn"},
                        {"field": "probability", "format": ".1%"},
                        {"field": "meets"},
                    ],
                },
            },
        ],
    }
