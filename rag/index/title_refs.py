"""Papers a text refers to by words of their title: "the paper on large language monkeys", "the
random sampling matrices paper". An abstract need not use its title's words ("monkeys" is only
in the title), so neither retrieval nor BM25 finds the paper such a reference means; a lookup
of the referring phrase among the titles does, when exactly one title holds all its words."""

from __future__ import annotations

import re

from rag.text.normalize import content_stems
from rag.types import Paper

_NOUN = r"(?:paper|work|study|article|preprint)"
# "the paper on X", "the work titled 'X'": X runs to the end of the sentence (titles have commas).
_ON = re.compile(
    rf"\b(?:the|that|this)\s+{_NOUN}\s+(?:on|about|titled|entitled|called|named)\s+[\"'“‘]?([^?.!;:\"”’()]+)", re.I
)
# "the X paper": X is the few words before the noun.
_BEFORE = re.compile(rf"\bthe\s+((?:[\w$-]+\s+){{1,6}}?){_NOUN}\b", re.I)
MAX_WORDS = 10
MIN_STEMS = 2  # one word ("the original paper", "the GAN paper") is no title


def may_refer(text: str) -> bool:
    """Cheap test before any lookup: the text has a "the paper on …"/"the … paper" phrase."""
    return _ON.search(text) is not None or _BEFORE.search(text) is not None


class TitleIndex:
    """Title content stems -> papers; built once per snapshot, on the first reference."""

    def __init__(self, papers: dict[str, Paper]) -> None:
        self.by_stem: dict[str, set[str]] = {}
        for pid, p in papers.items():
            for stem in set(content_stems(p.title or "")):
                self.by_stem.setdefault(stem, set()).add(pid)

    def referenced(self, text: str) -> list[str]:
        """Papers the text's referring phrases name, in order of mention."""
        out: list[str] = []
        for m in _ON.finditer(text):
            words = m.group(1).split()[:MAX_WORDS]
            out += self._one([words[:k] for k in range(len(words), 0, -1)])
        # "the X paper" as a whole: its first words are the ones that tell it from others
        # ("the social-media LLM benchmark paper" is not any "LLM benchmark" paper).
        out += [p for m in _BEFORE.finditer(text) for p in self._one([m.group(1).split()])]
        return list(dict.fromkeys(out))

    def _one(self, phrases: list[list[str]]) -> list[str]:
        """The paper whose title holds every content word of the longest phrase any title
        holds; none when several titles hold it (a shorter one would be vaguer still)."""
        for words in phrases:
            stems = set(content_stems(" ".join(words)))
            if len(stems) < MIN_STEMS:
                return []
            holders = set.intersection(*(self.by_stem.get(s, set()) for s in stems))
            if len(holders) == 1:
                return list(holders)
            if holders:
                return []
        return []
