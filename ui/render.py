"""HTML for the app: every piece of corpus text escaped, supporting sentences highlighted."""

from __future__ import annotations

import html
import itertools
from typing import TYPE_CHECKING, Any

from rag.answer.cite import escape_markers
from rag.corpus.label import display_label
from rag.text.display import readable, readable_html
from rag.text.guard import flag_of
from rag.types import Answer, Paper
from ui.layout import message_plain

if TYPE_CHECKING:  # the engine (and the answer path) loads after the page binds
    from rag.engine import Engine


def escape_html(text: str) -> str:
    """Corpus text is data: it never becomes HTML."""
    return html.escape(text, quote=True)


def chat_html(text: str) -> str:
    """A chat message as the Chatbot shows it. The Chatbot runs with markdown off (see
    ui/app.py), so its content is HTML: escaped text and line breaks, nothing else. With
    markdown on, `[x](http://…)` or `![x](http://…)` in an abstract would become a live link
    or an image fetched from anywhere, and `$$…$$` would go to KaTeX."""
    return escape_html(text).replace("\n", "<br>")


def markdown_text(text: str) -> str:
    """Text for a gr.Markdown: escaped HTML, and brackets as entities so that nothing in
    it (a file name, an error message) forms a markdown link or image."""
    return escape_html(text).replace("[", "&#91;").replace("]", "&#93;")


def message_text(content: Any) -> str:
    """The plain text of a chat message (what `chat_html` or `answer_html` built, back)."""
    if isinstance(content, list):  # Gradio 6 message content parts
        content = " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return message_plain(str(content))


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
        body = readable_html(escape_markers(piece))
        if kind == "mark":
            out.append(f"<mark>{body}</mark>")
        elif kind.startswith("flag:"):
            why = escape_html(f"Not used as evidence: reads as an instruction to an assistant ({kind[5:]})")
            out.append(f"<span class='flagged' title='{why}' style='{FLAGGED_STYLE}'>{body}</span>")
        else:
            out.append(body)
    return "".join(out)


FLAGGED_STYLE = "text-decoration: line-through; opacity: .65"


def flagged_spans(paper: Paper, engine: Engine) -> list[tuple[int, int, str]]:
    """(start, end, reason) of the sentences of `paper` flagged at ingest."""
    out: dict[tuple[int, int], str] = {}
    snap = engine.retriever.snapshot
    for n in snap.by_paper.get(paper.paper_id, []):
        start, end = int(n.metadata["start"]), int(n.metadata["end"])
        flag = flag_of(n.metadata, snap.quote(n.node_id))
        if flag:
            out[(start, end)] = flag
    return [(s, e, r) for (s, e), r in sorted(out.items())]


def flag_note(flagged: list[tuple[int, int, str]]) -> str:
    if not flagged:
        return ""
    n = len(flagged)
    return (
        f"<p class='flag-note'><small>⚠ {n} sentence{'s' if n > 1 else ''} of this abstract "
        f"read{'' if n > 1 else 's'} as instructions to an assistant; struck through, never used as evidence."
        "</small></p>"
    )


# A long "which papers" list cites dozens: the first few abstracts are shown open, the rest
# folded to their titles (a click on a citation opens its paper).
SOURCES_OPEN = 4


def sources_html(a: Answer, engine: Engine) -> str:
    """Cited papers with their supporting sentences highlighted; everything escaped."""
    papers = engine.papers
    if a.refused:
        items = "".join(
            f"<li><b>{_label(c.label, c.title)}</b>{_title(c.title, c.label)} <code>{escape_html(c.paper_id)}</code></li>"
            for c in a.closest
        )
        return f"<p class='refusal'><b>Not in the abstracts.</b> Closest papers:</p><ul>{items}</ul>"
    out = []
    for i, n in enumerate(sorted({c.n for c in a.citations})):
        cites = [c for c in a.citations if c.n == n]
        p = papers.get(cites[0].paper_id)
        if p is None:
            continue
        text = p.abstract
        found = [(text.find(c.quote), len(c.quote)) for c in cites]
        marks = [(start, start + length) for start, length in found if start >= 0]
        flagged = flagged_spans(p, engine)
        out.append(
            f"<details{' open' if i < SOURCES_OPEN else ''} class='source' id='source-{n}'>"
            f"<summary>[{n}] <b>{_label(p.label, p.title)}</b>"
            f"{_title(p.title, p.label)}</summary>{paper_meta(p)}<p>{abstract_html(text, marks, flagged)}</p>"
            f"{flag_note(flagged)}</details>"
        )
    return "".join(out)


def _label(label: str, title: str | None) -> str:
    return readable_html(display_label(label, title))


def _title(title: str | None, label: str = "") -> str:
    """ " — title", unless the label shown already is the title."""
    return f" — {readable_html(title)}" if title and readable(title) != readable(display_label(label, title)) else ""


def paper_meta(p: Paper) -> str:
    """Authors, venue, year, link and id of a paper, one line; the link only for an http(s) URL,
    opened in a new tab without a referrer."""
    year = str(p.year or "")
    if year and year in (p.venue or ""):  # "ICML 2025 · 2025" says it twice
        year = ""
    parts = [escape_html(x) for x in (", ".join(p.authors or []), p.venue or "", year) if x]
    if safe_url(p.url):
        parts.append(f"<a href='{escape_html(p.url or '')}' rel='noopener noreferrer' target='_blank'>paper page</a>")
    parts.append(f"<code>{escape_html(p.paper_id)}</code>")
    return f"<div class='meta'>{' · '.join(parts)}</div>"


def safe_url(url: str | None) -> bool:
    return bool(url) and str(url).lower().startswith(("http://", "https://"))


def authors_short(authors: list[str] | None) -> str:
    return (authors[0] + (" et al." if len(authors) > 1 else "")) if authors else ""


def answer_markdown(a: Answer) -> str:
    """ "Copy answer": the answer with its references, as Markdown."""
    lines = [a.answer_display or a.answer, ""]
    if a.citations:
        lines.append("References:")
        for n in sorted({c.n for c in a.citations}):
            group = [c for c in a.citations if c.n == n]
            c = group[0]
            title = f", *{readable(c.title)}*" if c.title else ""
            who = ", ".join(x for x in (authors_short(c.authors), c.venue or "") if x)
            lines.append(
                f"{n}. **{readable(display_label(c.label, c.title))}**{title}"
                + (f" ({who})" if who else "")
                + f" (`{c.paper_id}`)"
            )
            if c.url:
                lines.append(f"   <{c.url}>")
            lines += [f"   > {c.display or escape_markers(readable(c.quote))}" for c in group]
    return "\n".join(lines).strip() + "\n"
