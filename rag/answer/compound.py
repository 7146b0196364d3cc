"""A question with a records question after it: "What is ZebraLogic and who wrote it?", "What
is Sundial and where was it published?". Each part alone is answered (the second about the
paper the first was answered from, as a follow-up); asked together, the abstracts hold no
authors and the question was refused. The answer is the two answers, one after the other,
their citations numbered anew."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rag.answer.cite import CitationBuilder, cited_answer
from rag.answer.records import FROM_RECORD, record_asked
from rag.types import Answer, Paper, SentenceCheck

_AND_RECORD = re.compile(
    r"^(?P<first>.{3,}?)\s*,?\s+and\s+(?P<second>(?:who|where|when|what\s+(?:venue|conference|year))\b[^?]*)\?*\s*$",
    re.I,
)
_MARK = re.compile(r"\[(\d+)\]")


def record_part(question: str) -> tuple[str, str] | None:
    """(the first question, the records question after it), or None."""
    m = _AND_RECORD.match(question)
    if m is None:
        return None
    second = f"{m.group('second').strip()}?"
    if record_asked(second) is None:
        return None
    return f"{m.group('first').strip()}?", second


def joined(question: str, parts: list[Answer], papers: Mapping[str, Paper]) -> Answer:
    """The answers to the parts, one after the other, cited anew; refused when the first is."""
    if not parts or parts[0].refused:
        return parts[0] if parts else cited_answer(question, [], CitationBuilder(), [])
    builder = CitationBuilder()
    lines: list[str] = []
    checks: list[SentenceCheck] = []
    for a in (p for p in parts if not p.refused):
        new = {c.n: builder.cite(papers[c.paper_id], c.quote) for c in a.citations if c.paper_id in papers}

        def renumber(m: re.Match[str], new: dict[int, int] = new) -> str:
            return f"[{new.get(int(m.group(1)), int(m.group(1)))}]"

        lines += [_MARK.sub(renumber, line) for line in a.answer.splitlines()]
        checks += [s.model_copy(update={"citations": [new.get(n, n) for n in s.citations]}) for s in a.sentences]
    notes = " ".join(dict.fromkeys(_said_of_last(p.note) if i else p.note for i, p in enumerate(parts) if p.note))
    out = cited_answer(question, lines, builder, checks, note=notes or None)
    out.sources = parts[0].sources
    return out


def _said_of_last(note: str) -> str:
    """A later part's note, said of its lines ("From the papers' records …" is the last line's)."""
    return f"The last line: {note[0].lower()}{note[1:]}" if note == FROM_RECORD else note
