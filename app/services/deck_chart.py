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
            [c.turn for c in meets], [c.probability for c in meets], color="#2a7f3f", label="enough sources"
        )
        ax2.scatter(
            [c.turn for c in short],
            [c.probability for c in short],
            facecolors="none",
            edgecolors="#b23a2f",
            label="too few sources",
        )
        for c in answer.castability:
            if c.probability is not None:
                ax2.annotate(
                    c.card.name,
                    (c.turn, c.probability),
                    fontsize=6,
                    xytext=(4, 2),
                    textcoords="offset points",
                )
        ax.set_xticks(sorted(set(xs) | {c.turn for c in answer.castability}))
        handles = ax.get_legend_handles_labels()[0] + ax2.get_legend_handles_labels()[0]
        ax.legend(handles=handles, loc="upper right", fontsize=8)
        fig.tight_layout()
        out = io.BytesIO()
        fig.savefig(out, format="svg", metadata={"Date": None})
        return out.getvalue()
