""" "Who introduced X?" of an X the abstract credits to others ("… identity testing introduced by
Valiant and Valiant (2014)"): the abstract's sentence answers, not the paper's record, whose
authors did not introduce it. Of an X the paper does not present as its own (in its title, or
after "we propose", "a new …", "called …"), but builds on ("The needle-in-a-haystack test … has
been widely adopted", "based on the well-established … principle"), applies, compares with, or
does not write at all (a stranger sharing one rare word of it), nothing answers: its authors did
not introduce it either."""

from __future__ import annotations

import re

from rag.answer.cite import CitationBuilder, cited_answer, display_sentence
from rag.answer.shaped import refused
from rag.index.snapshot import Snapshot
from rag.text.normalize import content_stems
from rag.types import Answer, Closest, Paper, Query, SentenceCheck

_ASKS_ORIGIN = re.compile(
    r"^\s*who\s+(?:first\s+)?(?:proposed|introduced|developed|created|invented|coined|defined)\b", re.I
)
_CREDITS = re.compile(
    r"\b(?:introduced|proposed|developed|created|invented|pioneered|coined|defined|formulated)\s+by\s+(?-i:[A-Z])"
    r"|\bdue\s+to\s+(?-i:[A-Z][a-z])",
    re.I,
)

# "that setting", "this problem", "these models": a thing the conversation has named, pointed at.
_POINTED = re.compile(r"(?:this|that|these|those)\s+[a-z][\w-]*", re.I)

# Of the words of what is asked, this share must be in the title or introducing sentence of a
# paper credited with it (one of four may be put otherwise).
WRITTEN_SHARE = 0.75
# A word that introduces what follows it: "we propose …", "a new …", "called …".
_INTRODUCES = re.compile(
    r"(?:propos|introduc|present|develop|design|creat|construct|devis|formulat|defin|call|nam|dub|term|coin)\w*"
    r"|new|novel",
    re.I,
)
# ... unless a word of this kind stands between: "a novel connection between X and …" is new,
# X is not.
_BETWEEN = frozenset("of between to for with in on from by than over under via using based".split())
_INTRODUCED_WITHIN = 5  # words from the introducing word to what it introduces ("a new synthetic benchmark X")


def _introduces(sentence: str, stems: set[str]) -> bool:
    """The sentence introduces a thing named by a word of `stems`."""
    tokens = re.findall(r"[\w-]+", sentence)
    for i, t in enumerate(tokens):
        if not _INTRODUCES.fullmatch(t):
            continue
        for w in tokens[i + 1 : i + 1 + _INTRODUCED_WITHIN]:
            if w.lower() in _BETWEEN:
                break
            own = content_stems(w)
            if own and own[0] in stems:
                return True
    return False


def credited(query: Query, asked: str, inner: Answer, snap: Snapshot) -> Answer | None:
    """The answer to "who introduced <asked>?" from the sentence of the paper `inner` (the
    answer to "What is <asked>?") cites first that writes every word of `asked` and credits it
    to someone; the refusal when every sentence that writes it is on earlier work; None when the
    question asks something else, or the paper may have introduced it."""
    stems = set(content_stems(asked))
    question = query.question
    if not stems or not inner.citations or _ASKS_ORIGIN.match(question) is None:
        return None
    paper = snap.papers[inner.citations[0].paper_id]
    quotes = [q for _, q in snap.paper_quotes(paper.paper_id)]
    if _POINTED.fullmatch(asked.strip()):
        # "Who introduced that setting?" names the thing by pointing: the paper's sentence that
        # credits something to someone answers, those "What is that setting?" quoted first.
        quoted = [c.quote for c in inner.citations if c.paper_id == paper.paper_id]
        quote = next((q for q in [*quoted, *quotes] if _CREDITS.search(q)), None)
    else:
        quote = next((q for q in quotes if _CREDITS.search(q) and stems <= set(content_stems(q))), None)
    if quote is None:
        return _not_theirs(query, asked, stems, paper, inner, snap)
    builder = CitationBuilder()
    n = builder.cite(paper, quote)
    text = display_sentence(quote)
    check = SentenceCheck(text=text, citations=[n], supported=True, evidence_quote=quote)
    return cited_answer(question, [f"{text} [{n}]"], builder, [check], sources=inner.sources)


def _not_theirs(
    query: Query, asked: str, stems: set[str], paper: Paper, inner: Answer, snap: Snapshot
) -> Answer | None:
    """The refusal unless the paper presents `asked` as its own: in its title or label, or in
    a sentence that introduces it ("we propose X", "a new … X", "called X") together with its
    title. Else None (its record answers)."""
    own = set(content_stems(f"{paper.title or ''} {paper.label}"))
    if stems <= own:
        return None
    quotes = [q for _, q in snap.paper_quotes(paper.paper_id)]
    introducing = [own | set(content_stems(q)) for q in quotes if _introduces(q, stems)]
    if max((_share(stems, w) for w in introducing), default=_share(stems, own)) < WRITTEN_SHARE:
        written = own.union(*(content_stems(q) for q in quotes))
        uses = f"; {paper.label} uses it" if _share(stems, written) >= WRITTEN_SHARE else ""
        return _refusal(query, f"No indexed abstract says who introduced {asked.strip()}{uses}.", inner, snap)
    return None


def _share(stems: set[str], written: set[str]) -> float:
    return sum(s in written for s in stems) / len(stems)


def _refusal(query: Query, note: str, inner: Answer, snap: Snapshot) -> Answer:
    """The refusal saying why, with the papers `inner` found as its sources and closest."""
    a = refused(query, note)
    a.sources = inner.sources
    a.closest = [
        Closest(paper_id=s.paper_id, label=snap.papers[s.paper_id].label, score=s.score) for s in inner.sources[:3]
    ]
    return a
