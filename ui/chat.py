"""The Chat tab's handlers: streamed cited answers, copy, feedback, filters."""

from __future__ import annotations

import json
import queue
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag.text.display import readable
from rag.types import Answer
from ui.layout import answer_html
from ui.render import (
    answer_markdown,
    chat_html,
    escape_html,
    message_text,
    sources_html,
)
from ui.state import get_engine, wait_warm, warming

if TYPE_CHECKING:
    from rag.engine import Engine

WARMING = "Warming up: loading the index and the embedding model (once, a few seconds)… your question is answered as soon as it is ready."
_feedback_lock = threading.Lock()  # one writer at a time for feedback.jsonl


def respond(
    message: str,
    history: list[dict[str, Any]],
    backend: str = "extractive",
    top_k: int = 5,
    filters: list[str] | None = None,
    answers: list[dict[str, Any]] | None = None,
) -> Iterator[tuple[list[dict[str, Any]], str, str, list[dict[str, Any]]]]:
    """Chat handler: the answer appears sentence by sentence as each is verified, then the
    sources panel with the supporting sentences highlighted."""
    from rag.answer.question import check_question
    from rag.errors import UsageError

    engine = get_engine()
    answers = list(answers or [])
    message = (message or "").strip()
    if not message:
        yield history, "", "", answers
        return
    try:  # the same one-line messages as `rag ask` (empty after cleaning, too long)
        question = check_question(message, engine.settings.max_question_chars)
    except UsageError as e:
        shown = [*history, {"role": "user", "content": escape_html(message[:500])}]
        yield [*shown, {"role": "assistant", "content": escape_html(f"Error: {e}")}], "", "", answers
        return
    turns = _turns(history, answers)
    shown = [*history, {"role": "user", "content": chat_html(message)}, {"role": "assistant", "content": "…"}]
    if warming():
        shown[-1] = {"role": "assistant", "content": WARMING}
        yield list(shown), "", "", answers
        wait_warm()
        shown[-1] = {"role": "assistant", "content": "…"}
    yield list(shown), "", "", answers
    papers = [f.split("paper:", 1)[1] for f in filters or [] if f.startswith("paper:")]
    files = [f.split("file:", 1)[1] for f in filters or [] if f.startswith("file:")]
    sentences: queue.Queue[str | None] = queue.Queue()
    result: dict[str, Any] = {}
    work = partial(_work, engine, question, sentences, result, backend, turns, top_k, papers, files)
    threading.Thread(target=work, daemon=True).start()
    yield from _stream(shown, answers, sentences, result, backend)


def _turns(history: list[dict[str, Any]], answers: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The conversation so far as plain-text turns for `Engine.ask`."""
    turns = [{"role": t["role"], "content": message_text(t["content"])} for t in history if isinstance(t, dict)]
    # paper_ids of earlier answers make follow-ups robust
    for turn, prev in zip([t for t in turns if t["role"] == "assistant"], answers, strict=False):
        # de-duplicated in [n] order: "the second one" is the paper cited as [2]
        cites = sorted(prev.get("citations", []), key=lambda c: int(c.get("n", 0)))
        turn["paper_ids"] = list(dict.fromkeys(str(c["paper_id"]) for c in cites))
    return turns


def _work(
    engine: Engine,
    question: str,
    sentences: queue.Queue[str | None],
    result: dict[str, Any],
    backend: str,
    turns: list[dict[str, Any]],
    top_k: int,
    papers: list[str],
    files: list[str],
) -> None:
    """The worker thread: puts each verified sentence on `sentences`, then None; leaves the
    answer and its sources panel, or the error, in `result`."""
    try:
        # The answer and its sources panel from one index view: an upload committing in
        # between must not drop or change a cited paper under the answer.
        with engine.retriever.pinned():
            a = engine.ask(
                question,
                backend=backend,
                history=turns,
                top_k=int(top_k),
                papers=papers or None,
                files=files or None,
                on_sentence=sentences.put,
            )
            result["sources"] = sources_html(a, engine)
            result["answer"] = a
    except Exception as e:  # shown as one line, never a traceback
        result["error"] = f"{type(e).__name__}: {e}"
    finally:
        sentences.put(None)


def _stream(
    shown: list[dict[str, Any]],
    answers: list[dict[str, Any]],
    sentences: queue.Queue[str | None],
    result: dict[str, Any],
    backend: str,
) -> Iterator[tuple[list[dict[str, Any]], str, str, list[dict[str, Any]]]]:
    """Each verified sentence as it arrives, then the final message with the sources panel."""
    released: list[str] = []
    while (item := sentences.get()) is not None:
        released.append(item)
        shown[-1] = {"role": "assistant", "content": chat_html(readable("\n".join(released)))}
        yield list(shown), "", "", answers
    if "error" in result:
        shown[-1] = {"role": "assistant", "content": chat_html(f"Error: {result['error']}")}
        yield list(shown), "", "", answers
        return
    a: Answer = result["answer"]
    shown[-1] = {"role": "assistant", "content": answer_html(a, _extra(a, backend))}
    yield list(shown), result["sources"], "", [*answers, a.to_json()]


def _extra(a: Answer, backend: str) -> str:
    """The backend's failure and any note, shown after the answer."""
    text = ""
    if a.backend_error:
        text += f"(The {backend} backend failed: {a.backend_error}. This answer comes from the evidence.)\n"
    if a.note:
        text += f"(Note: {a.note})"
    return text.strip()


def copy_answer(answers: list[dict[str, Any]]) -> str:
    if not answers:
        return ""
    return answer_markdown(Answer.model_validate(answers[-1]))


def record_feedback(
    history: list[dict[str, Any]], answers: list[dict[str, Any]], index: int | None, comment: str
) -> str:
    """A thumbs-down becomes a draft eval case in RAG_HOME/feedback.jsonl (gold left for a person)."""
    engine = get_engine()
    assistant_turns = [i for i, t in enumerate(history) if isinstance(t, dict) and t.get("role") == "assistant"]
    if index is None or index not in assistant_turns or not answers:
        return "Pick an answer with 👎 first."
    k = assistant_turns.index(index)
    if k >= len(answers):
        return "That answer is still being written."
    a = answers[k]
    earlier = [{"role": t["role"], "content": message_text(t["content"])} for t in history[: index - 1]]
    draft = {
        "id": f"feedback-{int(time.time() * 1000)}",
        "type": "followup" if earlier else "single",
        "question": a.get("question", ""),
        "history": earlier,
        "gold_ids": [],
        "answer_facts": [],
        "evidence": "",
        "lexical": False,
        "needs_review": True,
        "answer": a.get("answer", ""),
        "citations": a.get("citations", []),
        "backend": a.get("backend"),
        "comment": (comment or "").strip(),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    path = Path(engine.settings.home) / "feedback.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with _feedback_lock, open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(draft, ensure_ascii=False) + "\n")
    return f"Thanks — saved as a draft eval case in {path}."


def filter_choices() -> list[str]:
    engine = get_engine()
    papers = engine.papers.values()
    files = sorted({p.source for p in papers})
    return [f"file:{f}" for f in files] + [f"paper:{p.paper_id}" for p in sorted(papers, key=lambda p: p.paper_id)]
