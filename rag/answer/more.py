""" "Tell me more", "Go on", "Can you elaborate?": in a conversation, more of the paper under
discussion. Such a request names nothing and refers to nothing in words, so it was refused; and
read as "Tell me more about it" it quoted again the sentences the last answer had quoted. The
answer is the paper's best sentences that no earlier answer quoted."""

from __future__ import annotations

import re

from rag.answer.cite import CitationBuilder, cited_answer, display_sentence
from rag.answer.selection import Evidence, rank_evidence
from rag.retrieval.retriever import Retriever
from rag.text.normalize import spaced_words
from rag.types import Answer, SentenceCheck

MORE_MAX = 3  # sentences per answer, as a single-paper answer quotes
# What the paper's sentences are ranked for: what it is first (the definition leads, if unsaid)
MORE_ASKED = "What is {label} and what does it show?"

_REQUEST = (
    r"(?:(?:tell\s+me|say|explain|share|give\s+me|show\s+me)\s+(?:a\s+(?:bit|little)\s+|some(?:thing)?\s+|much\s+)?more"
    r"|(?:go|keep)\s+on|keep\s+going|continue|elaborate|expand|go\s+(?:deeper|further|into\s+more\s+detail)"
    r"|(?:any\s+|some\s+|give\s+me\s+)?more(?:\s+(?:details?|info(?:rmation)?|please))?|(?:any\s+)?(?:further\s+)?details"
    r"|what\s+else(?:\s+(?:does|did|do)\s+(?:it|they|the\s+(?:paper|abstract|authors?))\s+(?:say|show|find|report))?"
    r"|anything\s+else|and\s+then)"
    # "… about it", "… on the second one": what it is more of
    r"(?:\s+(?:about|on|with)\s+(?:it|that|this|them|those|these|(?:the\s+)?(?:first|second|third|last|other|former"
    r"|latter)|(?:this|that)\s+one)(?:\s+(?:paper|one|work|method))?)?"
)
_MORE = re.compile(
    r"^\s*(?:(?:and|so|ok(?:ay)?|great|thanks|interesting|cool|nice)\s*[,!.]?\s+)*(?:please\s+)?"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
    rf"(?:{_REQUEST})(?:\s*,?\s*please)?\s*[?.!]*\s*$",
    re.I,
)


def asks_for_more(question: str) -> bool:
    """The question only asks for more of what was being discussed."""
    return _MORE.match(question) is not None


def said_before(history: list[dict[str, object]]) -> str:
    """The words of every assistant turn, spaced (`normalize.spaced_words`)."""
    return "".join(spaced_words(str(t.get("content", ""))) for t in history if t.get("role") == "assistant")


def unsaid(ranked: list[Evidence], said: str, n: int = MORE_MAX) -> list[Evidence]:
    """The first `n` of `ranked` whose words no earlier answer wrote (a sentence quoted with
    its LaTeX shown as text still matches by its words)."""
    return [e for e in ranked if spaced_words(display_sentence(e[1])) not in said][:n]


def more_of(paper_id: str, history: list[dict[str, object]], retriever: Retriever) -> Answer:
    """The paper's best sentences no assistant turn quoted, in the abstract's order; the refusal
    with a note when the earlier answers quoted them all."""
    snap = retriever.snapshot
    paper = snap.papers[paper_id]
    asked = MORE_ASKED.format(label=paper.label)
    qv = retriever.embed_queries([asked])[asked]
    ranking = rank_evidence(asked, paper, retriever, qv, defining=True)
    if ranking is None:
        return cited_answer(asked, [], CitationBuilder(), [])
    lead = [x for c in ranking.promoted for x in ranking.scored if x[0] == c]
    rest = sorted((x for x in ranking.scored if x not in lead), key=lambda e: -(e[2] + ranking.prior[e[0]]))
    chosen = sorted(unsaid(lead + rest, said_before(history)), key=lambda e: ranking.order[e[0]])
    builder = CitationBuilder()
    parts, checks = [], []
    for _, quote, _ in chosen:
        n = builder.cite(paper, quote)
        parts.append(f"{display_sentence(quote)} [{n}]")
        checks.append(SentenceCheck(text=display_sentence(quote), citations=[n], supported=True, evidence_quote=quote))
    a = cited_answer(asked, [" ".join(parts)] if parts else [], builder, checks)
    if not parts:
        a.note = f"The earlier answers quoted every sentence of the abstract of “{paper.title or paper.label}”."
    return a
