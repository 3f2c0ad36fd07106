"""The dependencies as pyproject.toml declares them: every framework whose behaviour the code relies on is
pinned to a tested range, which the versions constraints.txt pins (what CI tests) lie in; what the service
does not use is not installed; Redis is an extra that the image installs."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
FRAMEWORKS = {
    "fastapi",
    "starlette",
    "uvicorn",
    "httptools",
    "uvloop",
    "pydantic",
    "pydantic-settings",
    "sqlalchemy",
    "alembic",
    "psycopg",
}


def pinned() -> dict[str, str]:
    versions = {}
    for line in (ROOT / "constraints.txt").read_text(encoding="utf-8").splitlines():
        if "==" in line and not line.startswith("#"):
            name, version = line.split("==")
            versions[canonicalize_name(name)] = version.strip()
    return versions


def test_every_framework_is_pinned_to_a_range_holding_the_tested_version() -> None:
    requirements = {canonicalize_name(r.name): r for r in map(Requirement, PROJECT["dependencies"])}
    assert set(requirements) >= FRAMEWORKS
    versions = pinned()
    for name, requirement in requirements.items():
        operators = {spec.operator for spec in requirement.specifier}
        assert ">=" in operators, f"{name}: no lower bound"
        if name in FRAMEWORKS:
            assert "<" in operators, f"{name}: no upper bound (a release may change what the code relies on)"
        assert requirement.specifier.contains(versions[name]), (name, versions[name], str(requirement))


def test_uvicorn_without_its_standard_extra_and_redis_as_an_extra() -> None:
    requirements = [Requirement(r) for r in PROJECT["dependencies"]]
    assert not any(r.extras for r in requirements if r.name == "uvicorn")
    assert "redis" not in {canonicalize_name(r.name) for r in requirements}
    (redis,) = map(Requirement, PROJECT["optional-dependencies"]["redis"])
    assert redis.specifier.contains(pinned()["redis"])
    for unused in ("websockets", "watchfiles"):
        assert unused not in pinned(), f"{unused} is pinned but nothing uses it"
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "'manacalc[redis]'" in dockerfile and "'.[redis]'" in dockerfile
