"""Papers a text refers to by words of their title: "the paper on large language monkeys", "the
random sampling matrices paper", the name before a title's colon ("a memorization sink" for
"Memorization Sinks: …"), every word of a long title in any order, or a name the title defines in
brackets ("STOP" for "Self-Taught Optimizer (STOP): …"). An abstract need not use its title's words ("monkeys" is only in the
title), so neither retrieval nor BM25 finds the paper such a reference means; a lookup of the
referring phrase among the titles does, when exactly one title holds all its words."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rag.text.normalize import STOPWORDS, bare_title, content_stems, writes_name
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
MOST_SHARE = 0.6  # a title holding this share of a referring phrase's words, when none holds all
# A reference that this many titles hold at most is ambiguous, not vague: two papers called
# "Mind the Gap: …" are both meant, and a stranger that shares no title word is not.
SHARED_MAX = 3
# A title name all of whose words this many abstracts use (at least COMMON_MIN) is a phrase of
# the field ("LLM Reasoners: …" and a question on "LLM reasoning"), named only as written.
COMMON_SHARE = 0.01
COMMON_MIN = 3
# A title of this many content words, every one of them in the text (any order, any form), is
# named by it: "Can agnostic multi-robust learning be done with an ERM oracle?" names "Agnostic
# Multi-Robust Learning using ERM", which ranked second at 2,416 papers after a paper on ERM
# oracles. Distinct words, one of them not common (`COMMON_SHARE`): shorter titles, or titles of
# common words ("From Learning to Optimize to Learning Optimization Algorithms"), are phrases of
# the field a question on its topic writes.
EVERY_WORD_MIN = 4
# A name a title defines in brackets ("Self-Taught Optimizer (STOP): …", "… Testing (DeepBET)"):
# written as is, it names the paper, as a label does (the label of such a paper is its title).
_BRACKETED = re.compile(r"\(([A-Za-z][\w-]*[A-Z][\w-]*)\)")


def word_stems(text: str) -> list[str]:
    """One content stem per word, a hyphenated word as one ("multi-robust")."""
    return [s[0] for w in re.findall(r"[\w$-]+", text) if (s := content_stems(w))]


class TitleIndex:
    """Title content stems -> papers, the names before titles' colons, titles' word sets and
    bracketed names; built once per snapshot."""

    def __init__(self, papers: dict[str, Paper], df: Mapping[str, int] | None = None) -> None:
        """`df`: document frequencies of the abstracts' stems (None: no title name is common)."""
        self.by_stem: dict[str, set[str]] = {}
        heads: dict[tuple[str, ...], set[str]] = {}
        common = max(COMMON_MIN, COMMON_SHARE * len(papers))
        self.written: dict[tuple[str, ...], str] = {}  # a common title name -> as written, lowercase
        self.common = {s for s, n in (df or {}).items() if n > common}
        for pid, p in papers.items():
            title = bare_title(p.title)
            for stem in set(content_stems(title)) | set(content_stems(_plain_math(title))):
                self.by_stem.setdefault(stem, set()).add(pid)
            name = title.split(":", 1)[0] if ":" in title else ""
            head = tuple(content_stems(name))
            if len(head) >= MIN_STEMS:
                heads.setdefault(head, set()).add(pid)
                if df is not None and all(s in self.common for s in head):
                    self.written[head] = " ".join(name.lower().split())
        # Titles of `EVERY_WORD_MIN` words or more, each under one of its stems (any one: a text holding
        # the title holds them all).
        self.word_sets: dict[str, list[tuple[frozenset[str], str]]] = {}
        for pid, p in papers.items():
            ws = frozenset(word_stems(bare_title(p.title)))
            if len(ws) >= EVERY_WORD_MIN and ws - self.common:
                self.word_sets.setdefault(min(ws), []).append((ws, pid))
        self.bracketed: dict[str, set[str]] = {}
        for pid, p in papers.items():
            for m in _BRACKETED.finditer(p.title or ""):
                if len(m.group(1)) >= 3 and m.group(1).lower() not in STOPWORDS:  # "Conditioning (NOT) Work"
                    self.bracketed.setdefault(m.group(1), set()).add(pid)
        # By first stem; a name two titles share names neither alone (`shared`).
        self.heads: dict[str, dict[tuple[str, ...], set[str]]] = {}
        for head, pids in heads.items():
            if len(pids) <= SHARED_MAX:
                self.heads.setdefault(head[0], {})[head] = pids

    def referenced(self, text: str) -> list[str]:
        """Papers the text's referring phrases and title names name, in order of mention."""
        return [p for group in self._groups(text) if len(group) == 1 for p in group]

    def shared(self, text: str) -> list[list[str]]:
        """The title names (before the colon) the text writes that several titles have ("Mind
        the Gap" with two "Mind the Gap: …" papers indexed), each as its papers. Only names: a
        phrase several titles hold is often a topic ("the paper on fairness"), and the paper
        meant may be a third whose title words it does not use."""
        return [group for group in self._by_head(text) if len(group) > 1]

    def referenced_among(self, text: str, pids: list[str]) -> list[str]:
        """Papers of `pids` (a conversation's) that the text's referring phrases mean: "the
        single index model paper" is one of several such titles among thousands, but one among
        the few papers a conversation discussed."""
        among = set(pids)
        found: list[str] = []
        for phrases in _phrases(text):
            group = self._holders(phrases, among)
            found += group if len(group) == 1 else []
        return list(dict.fromkeys(found))

    def _groups(self, text: str) -> list[list[str]]:
        groups = self._by_head(text)
        groups += [self._holders(phrases) for phrases in _phrases(text)]
        groups.append(self._every_word(text))
        groups += [sorted(pids) for name, pids in self.bracketed.items() if writes_name(text, name)]
        return [list(g) for g in dict.fromkeys(tuple(g) for g in groups if g)]

    def _by_head(self, text: str) -> list[list[str]]:
        """Papers whose title's name (before the colon) the text writes, as a run of stems (a
        name of common words: as the title writes it)."""
        stems = content_stems(text)
        lowered = " ".join(text.lower().split())
        out = []
        for i, stem in enumerate(stems):
            for head, pids in self.heads.get(stem, {}).items():
                if tuple(stems[i : i + len(head)]) == head and (
                    head not in self.written or self.written[head] in lowered
                ):
                    out.append(sorted(pids))
        return out

    def _every_word(self, text: str) -> list[str]:
        """The papers every word of whose (long enough) title the text uses."""
        ws = set(word_stems(text))
        return sorted(pid for w in ws for title, pid in self.word_sets.get(w, []) if title <= ws)

    def _holders(self, phrases: list[list[str]], among: set[str] | None = None) -> list[str]:
        """The papers (of `among`, if given) whose titles hold every content word of the longest
        phrase any such title holds; none when more than `SHARED_MAX` do (a shorter one would
        be vaguer still)."""
        for words in phrases:
            stems = set(content_stems(" ".join(words)))
            if among is not None:  # "causal-discovery" for "Causal Discovery-Driven": its parts
                stems = {s for s in stems if "-" not in s} or stems
            if len(stems) < MIN_STEMS:
                return []
            holders = set.intersection(*(self.by_stem.get(s, set()) for s in stems))
            holders = holders if among is None else holders & among
            if holders:
                # A shorter prefix: a title holding most of the whole phrase says more ("the paper
                # on learning the whole optimal solution path" is "Learning the Optimal Solution
                # Path", not the one title that holds "learning" and "whole").
                if len(words) < len(phrases[0]) and (most := self._most_of(phrases[0], among)) is not None:
                    return [most]
                return sorted(holders) if len(holders) <= SHARED_MAX else []
        return []

    def _most_of(self, words: list[str], among: set[str] | None) -> str | None:
        """The one title (of `among`) holding the most of the phrase's content words, if it holds
        at least `MOST_SHARE` of them (and three or more)."""
        stems = {s for s in content_stems(" ".join(words)) if "-" not in s}
        counts: dict[str, int] = {}
        for s in stems:
            for pid in self.by_stem.get(s, ()):
                if among is None or pid in among:
                    counts[pid] = counts.get(pid, 0) + 1
        if not counts:
            return None
        best = max(counts.values())
        top = [p for p, n in counts.items() if n == best]
        return top[0] if len(top) == 1 and best >= 3 and best >= MOST_SHARE * len(stems) else None


def _phrases(text: str) -> list[list[list[str]]]:
    """Each referring phrase of the text as the word runs to look up, longest first: "the paper
    on X" (X runs to the end of the sentence, so its prefixes), "the X paper" as a whole (its
    first words tell it from others: "the social-media LLM benchmark paper" is not any "LLM
    benchmark" paper)."""
    out = []
    for m in _ON.finditer(text):
        words = m.group(1).split()[:MAX_WORDS]
        out.append([words[:k] for k in range(len(words), 0, -1)])
    return out + [[m.group(1).split()] for m in _BEFORE.finditer(text)]


_MATH = re.compile(r"\$([^$]*)\$")


def _plain_math(title: str) -> str:
    """Inline math as typed in plain text: "the $L_1$ Ball" is "the L1 Ball" (a reader writes
    "the L1-ball paper")."""
    return _MATH.sub(lambda m: re.sub(r"\\[A-Za-z]+|[\\_^{}\s]", "", m.group(1)), title)
