"""The docs explorer as an integrator sees it: Debian's chromium, headless, driven by Playwright against
a live uvicorn. Every operation of /openapi.json is listed, the named examples are shown, "Try it out" ->
Execute answers 200, ReDoc renders, and no request leaves localhost. Skipped only when chromium is
missing outside CI (with CI set, a missing chromium fails)."""

from __future__ import annotations

import json
import os
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.live_server import REPO, LiveServer, live_server

pytestmark = pytest.mark.db_free  # never reaches the database under test

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOT = (
    Path(os.environ.get("MANACALC_EXPLORER_SCREENSHOT", ""))
    if os.environ.get("MANACALC_EXPLORER_SCREENSHOT")
    else None
)

if not (os.path.exists(CHROMIUM) or shutil.which("chromium")):
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {CHROMIUM} is missing: .ci/run must install chromium", pytrace=False)
    pytest.skip("chromium is not installed (apt-get install -y chromium)", allow_module_level=True)

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("docs-browser")) as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


def _document(server: LiveServer) -> dict:
    with urllib.request.urlopen(f"{server.url}/openapi.json", timeout=10) as answer:
        return json.loads(answer.read())


def _off_host(requests: list[str]) -> list[str]:
    return [
        u
        for u in requests
        if urlsplit(u).scheme not in ("data", "blob") and urlsplit(u).hostname != "127.0.0.1"
    ]


def test_swagger_ui_lists_every_operation_and_try_it_out_works(server: LiveServer, browser) -> None:
    document = _document(server)
    expected = {
        (method.upper(), path)
        for path, item in document["paths"].items()
        for method, op in item.items()
        if isinstance(op, dict) and "responses" in op
    }
    page = browser.new_page(viewport={"width": 1280, "height": 2200})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{server.url}/docs", wait_until="networkidle")
    page.wait_for_selector(".opblock", timeout=30_000)
    assert page.locator("text=Unable to render this definition").count() == 0
    listed = set()
    for block in page.locator(".opblock").all():
        method = block.locator(".opblock-summary-method").inner_text().strip().upper()
        path = block.locator(".opblock-summary-path").get_attribute("data-path")
        listed.add((method, path))
    assert listed == expected, (expected - listed, listed - expected)

    # spellCost: its named examples are offered, and "Try it out" -> Execute answers 200.
    operation = page.locator("#operations-spells-spellCost")
    operation.locator(".opblock-summary").click()
    operation.locator(".try-out__btn").click()
    example_names = operation.locator(".examples-select select option").all_inner_texts()
    assert any("Herald's Horn" in name for name in example_names), example_names
    assert any("Savannah Lions" in name for name in example_names), example_names
    operation.locator("button.execute").click()
    status = operation.locator(".live-responses-table .response .response-col_status").first
    status.wait_for(timeout=30_000)
    assert status.inner_text().strip().startswith("200"), status.inner_text()
    assert '"total_cost"' in operation.locator(".live-responses-table .microlight").first.inner_text()
    if SCREENSHOT is not None:
        page.screenshot(path=str(SCREENSHOT), full_page=False)
    page.close()
    assert _off_host(requests) == [], _off_host(requests)


def test_redoc_renders_offline(server: LiveServer, browser) -> None:
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(f"{server.url}/redoc", wait_until="networkidle")
    page.wait_for_selector("[data-section-id^='operation/']", timeout=30_000)
    assert page.locator("[data-section-id='operation/spellCost']").count() == 1
    page.close()
    assert _off_host(requests) == [], _off_host(requests)


def test_screenshot_is_kept() -> None:
    assert (REPO / "docs" / "explorer.png").is_file()
