"""A paper identified by what it describes: "Which paper proposes a dual-sampling framework for
diffusion models?", "Is there a paper that introduces …?", "paper with a …". The paper that
writes the question's rare words answers; other papers that fit the description as well are
named in the answer's note."""

from __future__ import annotations

import re
from dataclasses import replace

from rag.answer.accept import Accepted, Trial, answers_alone
from rag.retrieval.retriever import Retriever
from rag.text.normalize import content_stems
from rag.types import Answer

# "Which paper proposes …?", "Is there a paper that introduces …?", "paper with a …": the
# question identifies one paper by what it describes.
_WHICH_PAPER = re.compile(
    r"\bwhich\s+(?:paper|work|study|article)\b|^\s*what\s+(?:paper|work|study|article)\b"
    r"|^\s*what(?:'s|\s+is|\s+was)\s+(?:the|that)\s+(?:paper|work|study|article)\s+(?:where|that|which|in\s+which)\b"
    r"|\b(?:is|are)\s+there\s+(?:a|an|any)\s+(?:paper|work|study|article)\b"
    r"|^\s*(?:(?:a|the|any)\s+)?(?:paper|work|study|article)\s+(?:with|on|about|that|which|where|proposing|introducing"
    r"|presenting)\b",
    re.I,
)
# A word this few abstracts use identifies the paper a description means.
RARE_MAX_PAPERS = 2


def asks_which_paper(question: str) -> bool:
    """The question identifies one paper by what it describes ("Which paper proposes …?")."""
    return _WHICH_PAPER.search(question) is not None


def described_runner_up(t: Trial, accepted: Accepted) -> Accepted:
    """ "Which paper proposes a dual-sampling framework for diffusion models?": the paper that
    writes the question's rare words (`RARE_MAX_PAPERS`), when the answer's paper writes fewer
    of them and that paper has a sentence among the question's closest (`r.sentence_rank`) and
    answers (clearly, when no paper did). At 2,416 papers the paper meant ranked 17th: first
    by its sentence and by BM25 over whole abstracts, far by its abstract's centroid; diffusion
    papers close on every signal outranked it, and the first answered, cited."""
    query, r, retriever = t.query, t.r, t.retriever
    if not asks_which_paper(query.question) or not (accepted or r.hits):
        return accepted
    snap = retriever.snapshot
    vocab = snap.vocabulary
    rare = {s for s in content_stems(query.question) if 0 < vocab.df.get(s, 0) <= RARE_MAX_PAPERS}
    close = {snap.sentences[c].metadata["paper_id"] for c in r.sentence_rank if c in snap.sentences}
    if not rare or not close:
        return accepted
    first = (accepted[0][0] if accepted else r.hits[0]).paper_id
    held = {pid: len(rare & vocab.paper_stems.get(pid, set())) for pid in close}
    most = max(held.values())
    holders = sorted(p for p, n in held.items() if n == most)
    if most <= len(rare & vocab.paper_stems.get(first, set())) or first in holders:
        return accepted
    hits = retriever.retrieve(query.question, top_k=len(holders), papers=holders, query_vec=r.query_vec).hits[:1]
    # Where no paper answered, only clearly (as `near_tie`): a near miss ("a pruning method for
    # compressing language models") has a paper sharing its rarer words too.
    if not hits:
        return accepted
    won = answers_alone(t, hits[0], bar=t.bar if accepted else replace(t.bar, strong=True))
    if won:
        t.why.append(f"description: {hits[0].paper_id} writes the question's rare words {sorted(rare)}, {first} fewer")
        return won
    return accepted


# The words of the frame, not of the description: "Which paper proposes a novel …".
_FRAME = frozenset(
    content_stems("paper papers work works study studies article propose introduce present develop use remember show")
    + content_stems("novel new")
)
FITTING_MAX = 4  # papers named in the note
FITTING_POOL = 5  # of the answer's first sources


def also_fitting(question: str, a: Answer, retriever: Retriever) -> str | None:
    """A note naming the answer's first sources that are not cited and whose abstracts hold every
    word of the description ("a novel nonparametric framework" fits many), or None. At 2,416
    papers 31 of 36 descriptions answered from another paper than the one meant got this note,
    7 of 100 answered from the right one."""
    if a.refused or not asks_which_paper(question):
        return None
    stems = retriever.snapshot.vocabulary.paper_stems
    described = set(content_stems(question)) - _FRAME
    cited = {c.paper_id for c in a.citations}
    others = [
        s.paper_id
        for s in a.sources[:FITTING_POOL]
        if s.paper_id not in cited and described and described <= stems.get(s.paper_id, set())
    ][:FITTING_MAX]
    if not others:
        return None
    papers = retriever.snapshot.papers
    titles = "; ".join(f"\u201c{papers[p].title or papers[p].label}\u201d" for p in others)
    n = len(others)
    return f"{n} other indexed {'paper fits' if n == 1 else 'papers fit'} this description as well: {titles}."
