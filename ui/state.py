"""The one engine the app shares across sessions."""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

import rag  # noqa: F401  (offline environment first)

if TYPE_CHECKING:  # imported on first use: `rag serve` binds before loading the answer path
    from rag.engine import Engine

log = logging.getLogger(__name__)

_engine: Engine | None = None


_engine_lock = threading.Lock()


def get_engine() -> Engine:
    """One engine per process, shared by every session; built (and the corpus indexed) on first use."""
    global _engine
    with _engine_lock:
        if _engine is None:
            from rag.engine import Engine
            from rag.settings import Settings

            engine = Engine(Settings())
            engine.ensure_index()
            _engine = engine
    return _engine


# Warm-up (snapshot + embedding model) runs in the background so `rag serve` binds as soon
# as the index is open; a question that arrives meanwhile waits for it, and the chat says so.
_warm_done = threading.Event()
_warm_thread: threading.Thread | None = None


def start_warm_up() -> None:
    """Start warming the shared engine once (later calls do nothing)."""
    global _warm_thread
    with _engine_lock:
        if _warm_thread is not None:
            return
        _warm_thread = threading.Thread(target=_warm, name="warm-up", daemon=True)
    _warm_thread.start()


def _warm() -> None:
    try:
        get_engine().warm()
    except Exception:  # the first question reports the error itself, as without warm-up
        log.warning("warm-up failed", exc_info=True)
    finally:
        _warm_done.set()


def warming() -> bool:
    """Whether a started warm-up is still running."""
    return _warm_thread is not None and not _warm_done.is_set()


def wait_warm(timeout: float | None = None) -> bool:
    """Wait for a started warm-up; True when none is running any more."""
    return _warm_thread is None or _warm_done.wait(timeout)
