"""The Papers tab's handlers: search, view and upload abstracts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rag.corpus.label import display_label
from rag.text.display import readable, readable_html
from ui.render import (
    abstract_html,
    flag_note,
    flagged_spans,
    markdown_text,
    paper_meta,
)
from ui.state import get_engine

HEADERS = ["paper_id", "label", "title", "authors", "abstract"]


def papers_table(query: str = "") -> list[list[str]]:
    """Rows of HEADERS (readable text; the table shows cells as text), filtered by `query`
    against id, label, title, authors and abstract."""
    engine = get_engine()
    q = (query or "").lower().strip()
    rows = []
    for p in sorted(engine.papers.values(), key=lambda p: (p.source, p.position)):
        authors = ", ".join(p.authors or [])
        abstract = readable(p.abstract)
        hay = f"{p.paper_id} {p.label} {p.title or ''} {authors} {p.abstract} {abstract}".lower()
        if not q or q in hay:
            short = abstract[:140] + ("…" if len(abstract) > 140 else "")
            rows.append(
                [p.paper_id, readable(display_label(p.label, p.title)), readable(p.title or ""), authors, short]
            )
    return rows


def paper_view(paper_id: str) -> str:
    engine = get_engine()
    p = engine.papers.get((paper_id or "").strip())
    if p is None:
        return "<p>Select a paper in the table.</p>"
    title = f"<p><b>{readable_html(p.title)}</b></p>" if p.title else ""
    flagged = flagged_spans(p, engine)
    body = abstract_html(p.abstract, [], flagged)
    return f"<h3>{readable_html(display_label(p.label, p.title))}</h3>{title}{paper_meta(p)}<p>{body}</p>{flag_note(flagged)}"


def cited_bibtex(answers: list[dict[str, Any]]) -> str:
    """BibTeX for the papers the last answer cites, in [n] order, keyed over the whole corpus."""
    from rag.corpus.bibtex import bibtex

    if not answers:
        return ""
    engine = get_engine()
    cites = sorted(answers[-1].get("citations", []), key=lambda c: int(c.get("n", 0)))
    ids = [pid for pid in dict.fromkeys(str(c["paper_id"]) for c in cites) if pid in engine.papers]
    return bibtex([engine.papers[pid] for pid in ids], engine.papers.values())


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
