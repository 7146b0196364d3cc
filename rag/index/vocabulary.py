"""Term statistics of the indexed abstracts: document frequencies of content stems."""

from __future__ import annotations

import math

from rag.text.normalize import content_stems
from rag.types import Paper


class Vocabulary:
    """Document frequencies of stems over the indexed abstracts (for coverage weights)."""

    def __init__(self, papers: dict[str, Paper], stems: dict[str, set[str]] | None = None) -> None:
        """`stems`: each paper's stems as computed before (persisted with the snapshot's
        arrays: stemming thousands of abstracts costs a cold start ~0.7 s)."""
        self.n = max(1, len(papers))
        self.df: dict[str, int] = {}
        self.paper_stems: dict[str, set[str]] = {}
        for pid, p in papers.items():
            own = stems.get(pid) if stems is not None else None
            self.paper_stems[pid] = own if own is not None else paper_stems(p)
            for s in self.paper_stems[pid]:
                self.df[s] = self.df.get(s, 0) + 1

    def idf(self, stem: str) -> float:
        return math.log((self.n + 1) / (self.df.get(stem, 0) + 0.5))


def paper_stems(p: Paper) -> set[str]:
    return set(content_stems(p.abstract + " " + (p.title or "") + " " + p.label))
