"""Term statistics of the indexed abstracts: document frequencies of content stems."""

from __future__ import annotations

import math

from rag.text.normalize import content_stems
from rag.types import Paper


class Vocabulary:
    """Document frequencies of stems over the indexed abstracts (for coverage weights)."""

    def __init__(self, papers: dict[str, Paper]) -> None:
        self.n = max(1, len(papers))
        self.df: dict[str, int] = {}
        self.paper_stems: dict[str, set[str]] = {}
        for pid, p in papers.items():
            stems = set(content_stems(p.abstract + " " + (p.title or "") + " " + p.label))
            self.paper_stems[pid] = stems
            for s in stems:
                self.df[s] = self.df.get(s, 0) + 1

    def idf(self, stem: str) -> float:
        return math.log((self.n + 1) / (self.df.get(stem, 0) + 0.5))
