"""The one engine the app shares across sessions."""

from __future__ import annotations

import threading

import rag  # noqa: F401  (offline environment first)
from rag.engine import Engine
from rag.settings import Settings

_engine: Engine | None = None


_engine_lock = threading.Lock()


def get_engine() -> Engine:
    """One engine per process, shared by every session; built (and the corpus indexed) on first use."""
    global _engine
    with _engine_lock:
        if _engine is None:
            engine = Engine(Settings())
            engine.ensure_index()
            _engine = engine
    return _engine
