"""Term statistics of the indexed abstracts: document frequencies of content stems and of
two-word phrases (adjacent content stems)."""

from __future__ import annotations

import itertools
import math
import re
from functools import cached_property

from rag.text.normalize import capitals_written, content_stems
from rag.types import Paper


class Vocabulary:
    """Document frequencies of stems and phrases over the indexed abstracts (for coverage
    weights, and for telling a rare phrase a question shares with a paper)."""

    def __init__(self, papers: dict[str, Paper], stems: dict[str, set[str]] | None = None) -> None:
        """`stems`: each paper's stems and phrases as computed before (persisted with the
        snapshot's arrays: stemming thousands of abstracts costs a cold start ~0.7 s)."""
        self.n = max(1, len(papers))
        self._papers = papers
        self.df: dict[str, int] = {}
        self.paper_stems: dict[str, set[str]] = {}
        self.paper_phrases: dict[str, set[str]] = {}
        for pid, p in papers.items():
            own = stems.get(pid) if stems is not None else None
            terms = own if own is not None else paper_stems(p)
            self.paper_stems[pid] = {t for t in terms if " " not in t}
            self.paper_phrases[pid] = {t for t in terms if " " in t}
            for s in terms:
                self.df[s] = self.df.get(s, 0) + 1

    @cached_property
    def capitals(self) -> dict[str, int]:
        """How many abstracts write each all-caps word ("ARM", "ARMs") in capitals: a coined
        acronym that is also an ordinary word ("arm") is rare as written, not as a stem."""
        out: dict[str, int] = {}
        for p in self._papers.values():
            for w in capitals_written(p.abstract):
                out[w] = out.get(w, 0) + 1
        return out

    def common(self, stem: str, share: float) -> bool:
        """Used by more than `share` of the indexed papers."""
        return self.df.get(stem, 0) > share * self.n

    def idf(self, stem: str) -> float:
        return math.log((self.n + 1) / (self.df.get(stem, 0) + 0.5))


_CLAUSE_BREAK = re.compile(r"[.,;:!?()\[\]{}\"]+")


def phrases(text: str) -> set[str]:
    """Adjacent content stems of a clause as "a b" (stopwords between them dropped: "fairness
    of models" is "fair model"; none across punctuation); a stem never holds a space, so
    stems and phrases live in one set."""
    out: set[str] = set()
    for clause in _CLAUSE_BREAK.split(text):
        # A compound as its parts ("flow-matching" is "flow match"): as a whole word beside its
        # own parts it made pairs no text writes ("out-of-distribut distribut").
        st = content_stems(clause.replace("-", " "))
        out.update(f"{a} {b}" for a, b in itertools.pairwise(st))
    return out


def paper_stems(p: Paper) -> set[str]:
    """A paper's content stems and phrases (title and abstract apart: no phrase across them)."""
    parts = (p.abstract, p.title or "", p.label)
    return set(content_stems(" ".join(parts))) | set().union(*(phrases(t) for t in parts))
