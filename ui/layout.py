"""An answer laid out for reading, as HTML built from the answer's own structure (its verified
sentences and their citations), never by rendering the answer text as markdown: a multi-paper
answer is a list (one item per paper, its label in bold, its sentences after it), a one-paper
answer a paragraph. Every character that comes from the data is escaped; the only tags are
ours (ANSWER_TAGS), and each `[n]` is a span the page's script (CITE_JS) turns into a jump to
that paper in the sources panel, with the title and quoted sentence as its tooltip."""

from __future__ import annotations

import html
import re

from rag.answer.cite import escape_markers
from rag.corpus.label import display_label
from rag.text.display import readable, readable_html
from rag.text.normalize import clean
from rag.types import Answer, Citation

ANSWER_TAGS = frozenset({"p", "ul", "li", "b", "i", "span", "br"})
_MARKER = re.compile(r"\s*\[(\d+)\]")


def _attr(text: str) -> str:
    return html.escape(text, quote=True)


def cite_span(n: int, cites: list[Citation]) -> str:
    """`[n]` with the paper's title and quoted sentence as its tooltip."""
    if not cites:
        return f"[{n}]"
    c = cites[0]
    quotes = " … ".join(f"“{x.display or readable(clean(x.quote))}”" for x in cites[:2])
    tip = f"{readable(c.title or c.label)} — {escape_markers(quotes)}"
    return f"<span class='cite' title='{_attr(tip)}'>[{n}]</span>"


def _with_cites(text: str, by_n: dict[int, list[Citation]]) -> str:
    """Readable escaped text whose own `[n]` markers (ours: the data's are "(n)") become cite spans."""
    out, last = [], 0
    for m in _MARKER.finditer(text):
        out.append(readable_html(text[last : m.start()]))
        n = int(m.group(1))
        out.append(" " + cite_span(n, by_n.get(n, [])))
        last = m.end()
    out.append(readable_html(text[last:]))
    return "".join(out)


def _groups(a: Answer) -> list[tuple[int, list[str]]]:
    """Supported sentences grouped by the paper they cite, in [n] order of first use."""
    groups: dict[int, list[str]] = {}
    for s in a.sentences:
        if s.supported and s.citations:
            groups.setdefault(s.citations[0], []).append(f"{s.text} " + " ".join(f"[{n}]" for n in s.citations))
    return list(groups.items())


def answer_html(a: Answer, extra: str = "") -> str:
    """The final chat message for `a`; `extra` (a note, a backend failure) as a last paragraph."""
    by_n: dict[int, list[Citation]] = {}
    for c in a.citations:
        by_n.setdefault(c.n, []).append(c)
    groups = _groups(a) if not a.refused else []
    if len(groups) > 1:
        items = []
        for n, sentences in groups:
            first = by_n[n][0] if by_n.get(n) else None
            label = readable_html(display_label(first.label, first.title)) if first else ""
            body = " ".join(_with_cites(s, by_n) for s in sentences)
            items.append(f"<li><b>{label}</b>: {body}</li>" if label else f"<li>{body}</li>")
        body_html = f"<ul>{''.join(items)}</ul>"
    elif groups:
        body_html = f"<p>{' '.join(_with_cites(s, by_n) for s in groups[0][1])}</p>"
    else:
        body_html = "<p>" + "<br>".join(_with_cites(line, by_n) for line in a.answer.splitlines()) + "</p>"
    if extra:
        body_html += "<p>" + "<br>".join(html.escape(x, quote=True) for x in extra.splitlines()) + "</p>"
    return body_html


def message_plain(content: str) -> str:
    """Our message HTML back to text: list items and paragraphs on their own lines. Every `<`
    from the data was escaped, so each tag here is one of ours."""
    text = re.sub(r"<br>|</li>|</p>", "\n", content)
    text = re.sub(r"<li>", "- ", text)
    return html.unescape(re.sub(r"<[^>]*>", "", text)).strip("\n")


# Clicking a citation opens its paper in the sources panel and scrolls to it. One delegated
# listener on the document: no handler attribute is ever written into a message.
CITE_JS = """
<script>
document.addEventListener('click', (e) => {
  const el = e.target && e.target.closest ? e.target.closest('#chat .cite') : null;
  if (!el) return;
  const m = /\\[(\\d+)\\]/.exec(el.textContent || '');
  const src = m && document.getElementById('source-' + m[1]);
  if (!src) return;
  src.open = true;
  document.querySelectorAll('#sources .source.current').forEach((x) => x.classList.remove('current'));
  src.classList.add('current');
  src.scrollIntoView({behavior: 'smooth', block: 'start'});
});
</script>
"""
CITE_CSS = (
    "#chat .cite { color: #1d4ed8; cursor: pointer; white-space: nowrap; } "
    "#chat .cite:hover { text-decoration: underline; } "
    "details.source.current { outline: 2px solid #1d4ed8; border-radius: 4px; } "
    ".source .meta { font-size: .9em; color: #555; margin: .2em 0 .4em 0; } .source .meta a { white-space: nowrap; } "
    # the list stays inside the message bubble, one paper per item with room between them
    "#chat .message ul { padding-left: 1.4em; margin: .2em 0; } #chat .message li { margin: 0 0 .5em 0; } "
)
