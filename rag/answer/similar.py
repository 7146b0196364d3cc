"""Papers like a named one: "Papers similar to AdaSplash?", "related work for the Sundial paper",
"What else is like it?". The indexed papers whose abstracts are closest to that paper's abstract
(cosine of the abstracts' mean sentence vectors), each cited by the sentence that says what it
is; the note says how they were chosen and that no abstract says they are related."""

from __future__ import annotations

import re

import numpy as np

from rag.answer.cite import CitationBuilder, cited_answer, display_sentence
from rag.answer.selection import defining_sentence
from rag.index.snapshot import Snapshot
from rag.types import Answer, SentenceCheck, Source

SIMILAR_MAX = 5
_NOUN = r"(?:papers?|works?|studies|articles|abstracts)"
_SIMILAR = re.compile(
    r"^\s*(?:(?:can|could)\s+you\s+|please\s+)?(?:(?:find|show|list|give|recommend|suggest)\s+(?:me\s+)?"
    r"|(?:what|which)\s+(?:(?:are|is)\s+(?:the\s+)?)?|are\s+there\s+|any\s+)?"
    rf"(?:(?:some|any|other|more)\s+)?(?:(?:other|more)\s+)?{_NOUN}\s+(?:that\s+are\s+|which\s+are\s+|are\s+)?"
    r"(?:most\s+)?(?:similar|related|close|closest|comparable|like)\s+(?:to\s+)?(?P<a>.+?)"
    r"|^\s*(?:(?:find|show|give)\s+(?:me\s+)?)?(?:related\s+work|similar\s+(?:papers|work))\s+(?:to|for|of)\s+(?P<b>.+?)"
    r"|^\s*what\s+(?:else\s+is\s+(?:like|similar\s+to)|is\s+(?:similar|related)\s+to)\s+(?P<c>.+?)"
    # In a conversation, of the paper discussed: "Are there similar papers?", "Any related work?"
    r"|^\s*(?P<d>(?:(?:can|could)\s+you\s+)?(?:(?:find|show|list|give|recommend|suggest)\s+(?:me\s+)?|are\s+there\s+|any\s+"
    r"|(?:what|which)\s+(?:are\s+)?)?(?:(?:some|any|other|more)\s+)?(?:similar|related|comparable)\s+"
    r"(?:papers?|works?|studies|articles))",
    re.I,
)
_END = re.compile(r"\s*[?.!]*\s*$")


def similar_asked(question: str) -> str | None:
    """The paper whose like the question asks for ("Papers similar to X?" -> "X"), or None."""
    m = _SIMILAR.fullmatch(_END.sub("", question))
    if m is None:
        return None
    if m.group("d") is not None:  # no paper named: the one under discussion
        return "it"
    return next(g for g in m.groups() if g is not None).strip() or None


def similar_papers(question: str, inner: Answer, snap: Snapshot, allowed: list[str] | None) -> Answer:
    """The papers closest to the first paper `inner` (the answer to "What is <it>?") cites, of
    `allowed` (None: all), one line each; refused when `inner` found no paper."""
    first = next((c.paper_id for c in inner.citations), None)
    if first is None or first not in snap.centroid_row:
        return inner.model_copy(update={"question": question})
    ranked = _closest(first, snap, allowed)
    builder = CitationBuilder()
    text: list[str] = []
    checks: list[SentenceCheck] = []
    for pid, cos in ranked:
        paper = snap.papers[pid]
        quote = defining_sentence([q for _, q in snap.paper_quotes(pid)], paper.label)
        if not quote:
            continue
        n = builder.cite(paper, quote)
        text.append(f"- {paper.label} ({cos:.2f}): {display_sentence(quote)} [{n}]")
        checks.append(SentenceCheck(text=display_sentence(quote), citations=[n], supported=True, evidence_quote=quote))
    seed = snap.papers[first]
    name = f"\u201c{seed.title}\u201d" if seed.title else seed.label
    return cited_answer(
        question,
        text,
        builder,
        checks,
        sources=[Source(paper_id=p, score=round(c, 6)) for p, c in ranked] + [Source(paper_id=first, score=1.0)],
        note=(
            f"The indexed papers whose abstracts are closest to that of {name} (cosine of the abstracts' "
            "embeddings, in brackets); each line quotes what the paper is. The abstracts do not say the "
            "papers are related."
        ),
    )


def _closest(paper_id: str, snap: Snapshot, allowed: list[str] | None) -> list[tuple[str, float]]:
    cos = snap.centroids @ snap.centroids[snap.centroid_row[paper_id]]
    keep = set(allowed) if allowed is not None else None
    out: list[tuple[str, float]] = []
    for i in np.argsort(-cos, kind="stable"):
        pid = snap.paper_ids[int(i)]
        if pid != paper_id and (keep is None or pid in keep) and pid in snap.papers:
            out.append((pid, float(cos[i])))
            if len(out) == SIMILAR_MAX:
                break
    return out
