"""The Papers tab's handlers: search, view and upload abstracts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ui.render import (
    abstract_html,
    escape_html,
    flag_note,
    flagged_spans,
    markdown_text,
)
from ui.state import get_engine


def papers_table(query: str = "") -> list[list[str]]:
    engine = get_engine()
    q = (query or "").lower().strip()
    rows = []
    for p in sorted(engine.papers.values(), key=lambda p: (p.source, p.position)):
        hay = f"{p.label} {p.title or ''} {p.abstract}".lower()
        if not q or q in hay:
            rows.append([p.paper_id, p.label, p.title or "", p.abstract[:140] + ("…" if len(p.abstract) > 140 else "")])
    return rows


def paper_view(paper_id: str) -> str:
    engine = get_engine()
    p = engine.papers.get((paper_id or "").strip())
    if p is None:
        return "<p>Select a paper in the table.</p>"
    meta = [f"<code>{escape_html(p.paper_id)}</code>"]
    if p.title:
        meta.append(escape_html(p.title))
    if p.authors:
        meta.append(escape_html(", ".join(p.authors)))
    flagged = flagged_spans(p, engine)
    body = abstract_html(p.abstract, [], flagged)
    return f"<h3>{escape_html(p.label)}</h3><p>{' · '.join(meta)}</p><p>{body}</p>{flag_note(flagged)}"


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
