"""The deck chart as a browser draws it: Debian's chromium (headless, through Playwright) renders the SVG of
a 40-, a 60- and a 100-card deck, and a page script measures every text box (``getBoundingClientRect``):
no two overlap, and none leaves the picture. The 60- and 100-card decks are built from the catalogue's
longest spell names, the hardest case for labels. Screenshots go to ``MANACALC_CHART_SCREENSHOTS`` (a
directory) when it is set. Skipped only when chromium is missing outside CI."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.api.test_decks import LIMITED

CHROMIUM = "/usr/bin/chromium"
if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {CHROMIUM} is missing: .ci/run must install chromium", pytrace=False)
    pytest.skip("chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")

SHOTS = (
    Path(os.environ["MANACALC_CHART_SCREENSHOTS"]) if os.environ.get("MANACALC_CHART_SCREENSHOTS") else None
)

# Every <text> of the SVG with its box on the page; the boxes that overlap another (by more than half a
# pixel: anti-aliasing) or stick out of the picture.
MEASURE = """() => {
  const svg = document.querySelector("svg");
  const frame = svg.getBoundingClientRect();
  const boxes = [...svg.querySelectorAll("text")].map((t) => {
    const r = t.getBoundingClientRect();
    return {text: t.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  });
  const overlaps = [];
  for (let i = 0; i < boxes.length; i++) {
    for (let j = i + 1; j < boxes.length; j++) {
      const a = boxes[i], b = boxes[j];
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 0.5 && h > 0.5) overlaps.push([a.text, b.text]);
    }
  }
  const outside = boxes.filter((b) => b.left < frame.left - 0.5 || b.right > frame.right + 0.5
    || b.top < frame.top - 0.5 || b.bottom > frame.bottom + 0.5).map((b) => b.text);
  return {count: boxes.length, overlaps, outside, width: frame.width, height: frame.height};
}"""


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield chromium
        finally:
            chromium.close()


def _long_named_spells(client: TestClient, count: int) -> list[str]:
    cards = client.get("/v1/cards", params={"limit": 1000}).json()["data"]
    spells = [c["name"] for c in cards if c.get("mana_cost") and "Land" not in c["type_line"]]
    assert len(spells) >= count
    return sorted(spells, key=lambda name: (-len(name), name))[:count]


def _decks(client: TestClient) -> dict[str, str]:
    sixty = _long_named_spells(client, 36)
    commander = _long_named_spells(client, 63)
    return {
        "40": LIMITED,
        "60": "\n".join(f"1 {name}" for name in sixty) + "\n12 Forest\n12 Mountain\n",
        "100": "\n".join(f"1 {name}" for name in commander) + "\n13 Forest\n12 Island\n12 Plains\n",
    }


def test_no_text_box_overlaps_another_at_any_deck_size(client: TestClient, browser) -> None:
    for size, decklist in _decks(client).items():
        answer = client.post("/v1/decks/analyze", json={"decklist": decklist}).json()
        assert answer["counts"]["main"] == int(size), (size, answer["problems"])
        svg = client.post("/v1/decks/chart", json={"decklist": decklist})
        assert svg.status_code == 200, svg.text
        page = browser.new_page(viewport={"width": 900, "height": 800})
        page.set_content(f"<!doctype html><body style='margin:0'>{svg.text}</body>")
        measured = page.evaluate(MEASURE)
        if SHOTS is not None:
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"deck-chart-{size}.png"), full_page=True)
        page.close()
        # One row per spell with a cost, so the table holds every one of them, each readable.
        assert measured["count"] > len(answer["castability"]) * 4, (size, measured["count"])
        assert measured["overlaps"] == [], (size, measured["overlaps"][:10])
        assert measured["outside"] == [], (size, measured["outside"][:10])
