"""The app's handlers: plain functions over one shared engine (tested directly)."""

from __future__ import annotations

import html
import itertools
import json
import queue
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import rag  # noqa: F401  (offline environment first)
from rag.answer.cite import escape_markers
from rag.engine import Engine
from rag.settings import PROJECT_ROOT, Settings
from rag.text.guard import flag_of
from rag.types import Answer, Paper

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


def _escape(text: str) -> str:
    """Corpus text is data: it never becomes HTML."""
    return html.escape(text, quote=True)


def chat_html(text: str) -> str:
    """A chat message as the Chatbot shows it. The Chatbot runs with markdown off (see
    ui/app.py), so its content is HTML: escaped text and line breaks, nothing else. With
    markdown on, `[x](http://…)` or `![x](http://…)` in an abstract would become a live link
    or an image fetched from anywhere, and `$$…$$` would go to KaTeX."""
    return _escape(text).replace("\n", "<br>")


def markdown_text(text: str) -> str:
    """Text for a gr.Markdown: escaped HTML, and brackets as entities so that nothing in
    it (a file name, an error message) forms a markdown link or image."""
    return _escape(text).replace("[", "&#91;").replace("]", "&#93;")


def _text(content: Any) -> str:
    """The plain text of a chat message (what `chat_html` escaped, back)."""
    if isinstance(content, list):  # Gradio 6 message content parts
        content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return html.unescape(str(content).replace("<br>", "\n"))


def abstract_html(text: str, marks: list[tuple[int, int]], flagged: list[tuple[int, int, str]]) -> str:
    """An abstract as HTML: every character escaped, supporting sentences in <mark>,
    sentences flagged as instructions struck through with the reason as a tooltip (a flagged
    sentence is never highlighted as support, even if a quote overlapped it), and bracketed
    numbers shown as "(7)" so the only "[n]" on screen are our citations."""
    cuts = sorted({0, len(text), *(x for s, e in marks for x in (s, e)), *(x for s, e, _ in flagged for x in (s, e))})
    pieces: list[tuple[str, str]] = []  # (kind, text); kind "", "mark" or a flag reason
    for a, b in itertools.pairwise(cuts):
        reason = next((r for s, e, r in flagged if s <= a and b <= e), None)
        kind = f"flag:{reason}" if reason else "mark" if any(s <= a and b <= e for s, e in marks) else ""
        if pieces and pieces[-1][0] == kind:
            pieces[-1] = (kind, pieces[-1][1] + text[a:b])
        else:
            pieces.append((kind, text[a:b]))
    out = []
    for kind, piece in pieces:
        body = _escape(escape_markers(piece))
        if kind == "mark":
            out.append(f"<mark>{body}</mark>")
        elif kind.startswith("flag:"):
            why = _escape(f"Not used as evidence: reads as an instruction to an assistant ({kind[5:]})")
            out.append(f"<span class='flagged' title='{why}' style='{FLAGGED_STYLE}'>{body}</span>")
        else:
            out.append(body)
    return "".join(out)


FLAGGED_STYLE = "text-decoration: line-through; opacity: .65"


def flagged_spans(paper: Paper, engine: Engine) -> list[tuple[int, int, str]]:
    """(start, end, reason) of the sentences of `paper` flagged at ingest."""
    out: dict[tuple[int, int], str] = {}
    for n in engine.retriever.snapshot.by_paper.get(paper.paper_id, []):
        start, end = int(n.metadata["start"]), int(n.metadata["end"])
        flag = flag_of(n.metadata, paper.abstract[start:end])
        if flag:
            out[(start, end)] = flag
    return [(s, e, r) for (s, e), r in sorted(out.items())]


def _flag_note(flagged: list[tuple[int, int, str]]) -> str:
    if not flagged:
        return ""
    n = len(flagged)
    return (
        f"<p class='flag-note'><small>⚠ {n} sentence{'s' if n > 1 else ''} of this abstract "
        f"read{'' if n > 1 else 's'} as instructions to an assistant; struck through, never used as evidence."
        "</small></p>"
    )


# --- chat --------------------------------------------------------------------------------
def sources_html(a: Answer, engine: Engine) -> str:
    """Cited papers with their supporting sentences highlighted; everything escaped."""
    papers = engine.retriever.snapshot.papers
    if a.refused:
        items = "".join(f"<li>{_escape(c.label)} <code>{_escape(c.paper_id)}</code></li>" for c in a.closest)
        return f"<p class='refusal'><b>Not in the abstracts.</b> Closest papers:</p><ul>{items}</ul>"
    out = []
    for n in sorted({c.n for c in a.citations}):
        cites = [c for c in a.citations if c.n == n]
        p = papers.get(cites[0].paper_id)
        if p is None:
            continue
        text = p.abstract
        found = [(text.find(c.quote), len(c.quote)) for c in cites]
        marks = [(start, start + length) for start, length in found if start >= 0]
        flagged = flagged_spans(p, engine)
        title = f" — {_escape(p.title)}" if p.title else ""
        link = f" <a href='{_escape(p.url or '')}' rel='noopener' target='_blank'>link</a>" if _safe_url(p.url) else ""
        out.append(
            f"<details open class='source' id='source-{n}'><summary>[{n}] <b>{_escape(p.label)}</b>{title} "
            f"<code>{_escape(p.paper_id)}</code>{link}</summary><p>{abstract_html(text, marks, flagged)}</p>"
            f"{_flag_note(flagged)}</details>"
        )
    return "".join(out)


def _safe_url(url: str | None) -> bool:
    return bool(url) and str(url).lower().startswith(("http://", "https://"))


def answer_markdown(a: Answer) -> str:
    """ "Copy answer": the answer with its references, as Markdown."""
    lines = [a.answer, ""]
    if a.citations:
        lines.append("References:")
        for n in sorted({c.n for c in a.citations}):
            group = [c for c in a.citations if c.n == n]
            title = f", *{group[0].title}*" if group[0].title else ""
            lines.append(f"{n}. **{group[0].label}** (`{group[0].paper_id}`){title}")
            lines += [f"   > {escape_markers(c.quote)}" for c in group]
    return "\n".join(lines).strip() + "\n"


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
        shown = [*history, {"role": "user", "content": _escape(message[:500])}]
        yield [*shown, {"role": "assistant", "content": _escape(f"Error: {e}")}], "", "", answers
        return
    turns = [{"role": t["role"], "content": _text(t["content"])} for t in history if isinstance(t, dict)]
    # paper_ids of earlier answers make follow-ups robust
    for turn, prev in zip([t for t in turns if t["role"] == "assistant"], answers, strict=False):
        turn["paper_ids"] = [c["paper_id"] for c in prev.get("citations", [])]
    shown = [*history, {"role": "user", "content": chat_html(message)}, {"role": "assistant", "content": "…"}]
    yield list(shown), "", "", answers
    papers = [f.split("paper:", 1)[1] for f in filters or [] if f.startswith("paper:")]
    files = [f.split("file:", 1)[1] for f in filters or [] if f.startswith("file:")]
    sentences: queue.Queue[str | None] = queue.Queue()
    result: dict[str, Any] = {}

    def work() -> None:
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

    threading.Thread(target=work, daemon=True).start()
    released: list[str] = []
    while (item := sentences.get()) is not None:
        released.append(item)
        shown[-1] = {"role": "assistant", "content": chat_html(" ".join(released))}
        yield list(shown), "", "", answers
    if "error" in result:
        shown[-1] = {"role": "assistant", "content": chat_html(f"Error: {result['error']}")}
        yield list(shown), "", "", answers
        return
    a: Answer = result["answer"]
    text = a.answer if a.refused else (" ".join(released) or a.answer)
    if a.backend_error:
        text += f"\n\n(The {backend} backend failed: {a.backend_error}. This answer comes from the evidence.)"
    if a.note:
        text += f"\n\n(Note: {a.note})"
    shown[-1] = {"role": "assistant", "content": chat_html(text)}
    yield list(shown), result["sources"], "", [*answers, a.to_json()]


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
    earlier = [{"role": t["role"], "content": _text(t["content"])} for t in history[: index - 1]]
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
    with _engine_lock, open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(draft, ensure_ascii=False) + "\n")
    return f"Thanks — saved as a draft eval case in {path}."


def filter_choices() -> list[str]:
    engine = get_engine()
    papers = engine.retriever.snapshot.papers.values()
    files = sorted({p.source for p in papers})
    return [f"file:{f}" for f in files] + [f"paper:{p.paper_id}" for p in sorted(papers, key=lambda p: p.paper_id)]


# --- papers --------------------------------------------------------------------------------
def papers_table(query: str = "") -> list[list[str]]:
    engine = get_engine()
    q = (query or "").lower().strip()
    rows = []
    for p in sorted(engine.retriever.snapshot.papers.values(), key=lambda p: (p.source, p.position)):
        hay = f"{p.label} {p.title or ''} {p.abstract}".lower()
        if not q or q in hay:
            rows.append([p.paper_id, p.label, p.title or "", p.abstract[:140] + ("…" if len(p.abstract) > 140 else "")])
    return rows


def paper_view(paper_id: str) -> str:
    engine = get_engine()
    p = engine.retriever.snapshot.papers.get((paper_id or "").strip())
    if p is None:
        return "<p>Select a paper in the table.</p>"
    meta = [f"<code>{_escape(p.paper_id)}</code>"]
    if p.title:
        meta.append(_escape(p.title))
    if p.authors:
        meta.append(_escape(", ".join(p.authors)))
    flagged = flagged_spans(p, engine)
    body = abstract_html(p.abstract, [], flagged)
    return f"<h3>{_escape(p.label)}</h3><p>{' · '.join(meta)}</p><p>{body}</p>{_flag_note(flagged)}"


def upload(path: str | None, progress: Any = None) -> str:
    """Ingest an uploaded corpus file (text or JSONL); clear messages for bad files.
    The message goes to a gr.Markdown and names the file: escaped (`markdown_text`)."""
    if not path:
        return "Choose a .txt or .jsonl file first."
    src = Path(path)
    if src.suffix not in (".txt", ".jsonl"):
        return markdown_text(f"{src.name}: only .txt (header + one abstract per line) or .jsonl files can be ingested.")
    engine = get_engine()
    dest = Path(engine.settings.home) / "uploads" / src.name
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(src.read_bytes())
    if progress is not None:
        progress(0.1, desc="embedding")
    report = engine.ingest([dest], progress=False)
    if report.errors:
        dest.unlink(missing_ok=True)
        return markdown_text("Not ingested: " + "; ".join(e.replace(str(dest.parent) + "/", "") for e in report.errors))
    return markdown_text(
        f"{dest.name}: {report.added} added, {report.updated} updated, {report.unchanged} unchanged, "
        f"{report.removed} removed. Index: {report.papers} papers."
    )


# --- evaluate ------------------------------------------------------------------------------
def eval_sets() -> list[str]:
    return sorted(str(p.relative_to(PROJECT_ROOT)) for p in (PROJECT_ROOT / "eval").glob("*.jsonl"))


def run_eval(
    set_path: str, backend: str, limit: int = 0, progress: Any = None
) -> tuple[str, list[str], list[list[Any]]]:
    """Run an eval set as `rag eval` does; returns the report table, plot paths and per-question rows."""
    from rag.evaluation.evalset import load_set
    from rag.evaluation.runner import evaluate

    engine = get_engine()
    cases = load_set(PROJECT_ROOT / set_path)
    if limit:
        cases = cases[: int(limit)]
    engine.llm(backend)

    def on_progress(done: int, total: int) -> None:
        if progress is not None:
            progress(done / total, desc=f"{done}/{total}")

    out = Path(engine.settings.home) / "eval-runs" / f"{Path(set_path).stem}-{backend}"
    title = f"{set_path} ({backend})"
    report, rows = evaluate(
        engine, cases, backend=backend, out=out, title=title, on_progress=on_progress, progress_bar=False
    )
    table = (out / "report.md").read_text(encoding="utf-8").split("## Failures")[0]
    reasons = {q["id"]: q["reason"] for q in report["questions"]}
    per_q = [[r["id"], r["type"], reasons.get(r["id"]) or "pass", r["question"], r["answer"][:200]] for r in rows]
    return table, [str(out / "metrics_by_type.png"), str(out / "latency_hist.png")], per_q


def only_failures(rows: list[list[Any]], failures_only: bool) -> list[list[Any]]:
    return [r for r in rows or [] if not failures_only or r[2] != "pass"]
