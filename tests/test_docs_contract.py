"""docs/api.md lists exactly the operations of the OpenAPI document, with their operationIds."""

from __future__ import annotations

import json
import re

import pytest

from tests.live_server import REPO

pytestmark = pytest.mark.db_free  # never reaches the database under test


def test_docs_api_lists_every_operation_of_the_document() -> None:
    document = json.loads((REPO / "openapi" / "openapi.json").read_text(encoding="utf-8"))
    expected = {
        (method.upper(), path, operation["operationId"])
        for path, item in document["paths"].items()
        for method, operation in item.items()
    }
    text = (REPO / "docs" / "api.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `([A-Z]+) (/\S*)` \| `(\w+)` \|", text, re.M))
    assert listed == expected, (expected - listed, listed - expected)
    assert "../shared" not in text
