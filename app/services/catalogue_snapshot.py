"""A snapshot of the in-memory catalogue on local disk, so that a worker starts without rebuilding it.

A worker must be ready within seconds with the whole catalogue in memory. Building the index from the
database (every card, its faces and legality rows turned into frozen rules values) is most of a start,
and more when two workers start together on two cores. Loading the same objects from a pickle written by
an earlier start takes about a third of that.

The snapshot is only ever a copy of what the database says, for one catalogue and one build of the code:
its file name carries a digest of the database, its ``data_version`` and the sources of every module whose
objects it holds (the rules values and the index entries), so an import or an upgrade makes a new file and
the old one is never read again (it is deleted). A snapshot that cannot be read is deleted and the
catalogue is built from the database as before; failing to write one only logs.

Pickle runs code from the file it loads, so the directory must be ours alone: it is created with mode
0700 and refused (no snapshot) if it is owned by another user or writable by group or others. Writes go to
a temporary file renamed into place, so two workers starting at once never read half a file.
"""

from __future__ import annotations

import gc
import hashlib
import importlib.machinery
import logging
import os
import pickle
import stat
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from app import __version__

logger = logging.getLogger("manacalc.catalogue")

PREFIX: Final = "catalogue-"
SUFFIX: Final = ".pickle"
_APP = Path(__file__).resolve().parents[1]
_CODE: Final = (_APP / "rules", _APP / "services" / "card_index.py")
"""The modules whose objects a snapshot holds: any change to them makes snapshots of another name."""


def default_directory() -> Path:
    """``<temp dir>/manacalc-catalogue-<uid>`` (per user, so never another user's directory)."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"manacalc-catalogue-{uid}"


def core_build() -> str:
    """``"mypyc"`` when the rules core runs compiled (setup.py), ``"pure"`` when it runs from its sources.

    Part of a snapshot's key: the two builds pickle their frozen values differently (a compiled class has
    no ``__dict__`` nor the pure class's reduce), so one loading the other's snapshot gave wrong cards one
    way and an AttributeError the other, as two builds sharing a host during a rolling upgrade would.
    """
    from app.rules.values import costs

    compiled = any(costs.__file__.endswith(suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES)
    return "mypyc" if compiled else "pure"


def code_fingerprint() -> str:
    """A digest of the version, the core's build and the source of the modules whose objects are pickled."""
    digest = hashlib.sha256(__version__.encode())
    digest.update(core_build().encode())
    for root in _CODE:
        files = sorted(root.rglob("*.py")) if root.is_dir() else [root]
        for path in files:
            try:
                digest.update(path.name.encode())
                digest.update(path.read_bytes())
            except OSError:  # pragma: no cover - an installed package always has its sources
                digest.update(b"?")
    return digest.hexdigest()


def snapshot_path(directory: Path, source: str, data_version: str) -> Path:
    """``source`` names the database (two databases never share a snapshot, whatever their versions)."""
    key = hashlib.sha256(f"{source}\0{data_version}\0{code_fingerprint()}".encode()).hexdigest()[:24]
    return directory / f"{PREFIX}{key}{SUFFIX}"


def _usable(directory: Path) -> bool:
    """Create the directory (0700) if need be; whether it is ours alone."""
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = directory.stat()
    except OSError as exc:
        logger.warning("no catalogue snapshot: %s is not usable (%s)", directory, exc)
        return False
    if hasattr(os, "getuid") and info.st_uid != os.getuid():
        logger.warning("no catalogue snapshot: %s belongs to another user", directory)
        return False
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        logger.warning("no catalogue snapshot: %s is writable by others", directory)
        return False
    return True


def load_or_build(directory: Path | None, source: str, data_version: str, build: Callable[[], Any]) -> Any:
    """The snapshot of ``source``'s catalogue at ``data_version`` if there is a good one in
    ``directory``, else ``build()``, which is then written there for the next start. ``directory`` None:
    always ``build()``."""
    if directory is None or not _usable(directory):
        return build()
    path = snapshot_path(directory, source, data_version)
    if path.exists():
        try:
            return _read(path)
        except Exception:
            logger.warning("catalogue snapshot %s unreadable: deleted, building from the database", path)
            path.unlink(missing_ok=True)
    value = build()
    _write(path, value)
    return value


def _read(path: Path) -> Any:
    # Half the time of a load went to the collector, scanning the new objects again and again as they
    # were made: they are all kept (and then frozen, ``card_index``), so it is paused meanwhile.
    enabled = gc.isenabled()
    gc.disable()
    try:
        with path.open("rb") as f:
            return pickle.load(f)
    finally:
        if enabled:
            gc.enable()


def _write(path: Path, value: Any) -> None:
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with tmp.open("wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except Exception as exc:
        logger.warning("catalogue snapshot not written to %s (%s)", path, exc)
        tmp.unlink(missing_ok=True)
        return
    for other in path.parent.glob(f"{PREFIX}*{SUFFIX}"):
        if other != path:  # another catalogue or another build of the code: never read again
            other.unlink(missing_ok=True)
