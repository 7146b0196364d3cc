"""Streams that cannot hold their caller past a deadline."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Generator, Iterator
from typing import Any

from rag.models.llm import LLMError


def with_deadline(
    make_stream: Callable[[], Iterator[str]], *, deadline: float, budget: float
) -> Generator[str, None, None]:
    """The items of `make_stream()`, produced in a worker thread, until `deadline`
    (a `time.perf_counter` value) passes; then LLMError.

    A backend blocked in a socket read, a DNS lookup or native code cannot hold the caller
    past the deadline this way. The worker stops at its next item once the caller is gone.
    """
    items: queue.Queue[tuple[str, Any]] = queue.Queue()
    stop = threading.Event()
    threading.Thread(target=_produce, args=(make_stream, items, stop), name="llm-stream", daemon=True).start()
    got_any = False

    def late() -> LLMError:
        what = "did not finish" if got_any else "sent nothing"
        return LLMError(f"the LLM {what} within {budget:g}s (RAG_LLM_TIMEOUT)")

    try:
        while True:
            # Checked before every item: a fast endless stream always has one waiting.
            left = deadline - time.perf_counter()
            if left <= 0:
                raise late()
            try:
                kind, value = items.get(timeout=left)
            except queue.Empty:
                raise late() from None
            if kind == "end":
                return
            if kind == "error":
                raise value
            got_any = True
            yield value
    finally:
        stop.set()


def _produce(
    make_stream: Callable[[], Iterator[str]], items: queue.Queue[tuple[str, Any]], stop: threading.Event
) -> None:
    """`with_deadline`'s worker: puts ("item", x) for each item, then ("end", None), or
    ("error", e); stops at its next item once `stop` is set."""
    stream: Iterator[str] | None = None
    try:
        stream = make_stream()
        for item in stream:
            if stop.is_set():
                return
            items.put(("item", item))
        items.put(("end", None))
    except BaseException as e:  # handed to the caller's thread
        items.put(("error", e))
    finally:
        close = getattr(stream, "close", None)
        if close:
            close()
