"""The deck analysis as a picture: the mana curve as bars, each spell's castability on curve as a marker.

Drawn with matplotlib (Agg backend, no display) and written as SVG; nothing here reads the database.
"""

from __future__ import annotations

import io
import threading

import matplotlib

matplotlib.use("Agg")
from matplotlib.figure import Figure

from app.schemas.decks import DeckAnalyzeAnswer

_LOCK = threading.Lock()  # matplotlib's text and font caches are not thread-safe


def render_svg(answer: DeckAnalyzeAnswer) -> bytes:
    """An SVG chart: copies per mana value (bars, left axis) and, per spell, the chance to cast it on its
    turn (markers, right axis; filled when the deck has the sources Karsten's table asks for)."""
    with _LOCK:
        fig = Figure(figsize=(8, 4.5))
        ax = fig.add_subplot()
        values = list(answer.curve)
        xs = [float(v) for v in values]
        ax.bar(xs, [answer.curve[v] for v in values], width=0.6, color="#9db4c0", label="copies")
        ax.set_xlabel("mana value")
        ax.set_ylabel("copies (main deck)")
        ax.set_title(f"{answer.counts['main']} cards, {answer.lands} lands: curve and castability on curve")
        ax2 = ax.twinx()
        ax2.set_ylim(0, 1.05)
        ax2.set_ylabel("probability to cast on curve")
        meets = [c for c in answer.castability if c.meets and c.probability is not None]
        short = [c for c in answer.castability if not c.meets and c.probability is not None]
        ax2.scatter(
            [c.turn for c in meets],
            [c.probability or 0.0 for c in meets],
            color="#2a7f3f",
            label="enough sources",
        )
        ax2.scatter(
            [c.turn for c in short],
            [c.probability or 0.0 for c in short],  # never None: filtered above
            facecolors="none",
            edgecolors="#b23a2f",
            label="too few sources",
        )
        by_turn: dict[int, list[tuple[float, str]]] = {}
        for c in answer.castability:
            if c.probability is not None:
                by_turn.setdefault(c.turn, []).append((c.probability, c.card.name))
        for turn, rows in by_turn.items():  # stack the names of a turn's spells, lowest chance last
            label_y = 2.0
            for p, name in sorted(rows, reverse=True):
                label_y = min(p, label_y - 0.035)
                ax2.annotate(name, (turn, p), xytext=(turn + 0.08, label_y), fontsize=6, va="center")
        ax.set_xticks(sorted(set(xs) | set(by_turn)))
        handles = ax.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
        fig.legend(handles=handles, loc="lower center", ncol=3, fontsize=8, frameon=False)
        fig.tight_layout(rect=(0, 0.07, 1, 1))
        out = io.BytesIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
        return out.getvalue()
