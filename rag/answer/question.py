"""What a question may be before it reaches retrieval: the same rules for CLI, app and library."""

from __future__ import annotations

from rag.errors import UsageError


def check_question(question: str, max_chars: int | None = None) -> str:
    """The question without control characters, or a one-line `UsageError` (empty, too long).

    Control characters (terminal escapes, NUL, zero-width marks…) carry no meaning for
    retrieval and would be echoed back into terminals and HTML, so they are dropped
    rather than rejected. `max_chars` is RAG_MAX_QUESTION_CHARS; None means no cap.
    """
    q = "".join(ch for ch in question if ch.isprintable() or ch in "\t\n").strip()
    if not q:
        raise UsageError("the question is empty")
    if max_chars is not None and len(q) > max_chars:
        raise UsageError(f"the question is {len(q)} characters long; the limit is {max_chars} (RAG_MAX_QUESTION_CHARS)")
    return q
