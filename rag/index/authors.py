"""Author names of the indexed papers' records, found in a text: "Which papers are by Yejin
Choi?" names a person only by a full name the records list (a surname alone is often shared)."""

from __future__ import annotations

import re
import unicodedata

from rag.types import Paper

MAX_NAME_WORDS = 6


def fold(text: str) -> str:
    """Lowercase, accents and punctuation gone, one space between words: "Gonçalves" and
    "goncalves" are one name."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return " ".join(re.findall(r"[a-z0-9]+", plain.lower()))


_WORD = re.compile(r"[^\W_]+")
_JOINED = re.compile(r"\s*(?:,\s*(?:(?:and|or)\s+|&\s*)?|(?:and|or|&)\s+)", re.I)  # between two names of a list
_OR = re.compile(r"\bor\b", re.I)


def canonical(folded: str) -> str:
    """A folded full name without its middle initials: one venue's records write "Osama A
    Hanna", another's "Osama Hanna", and a user may write either."""
    parts = folded.split()
    if len(parts) <= 2:
        return folded
    return " ".join([parts[0], *(p for p in parts[1:-1] if len(p) > 1), parts[-1]])


class AuthorIndex:
    """Full author name (folded, `canonical`) -> the papers whose records list it; built once
    per snapshot."""

    def __init__(self, papers: dict[str, Paper]) -> None:
        self.papers: dict[str, list[str]] = {}
        for pid, p in papers.items():
            for name in p.authors or []:
                key = canonical(fold(name))
                if len(key.split()) >= 2 and pid not in self.papers.get(key, []):  # one word is no full name
                    self.papers.setdefault(key, []).append(pid)

    def of(self, name: str) -> list[str]:
        """The papers of a full name as written ("Noah A. Smith")."""
        return self.papers.get(canonical(fold(name)), [])

    def named(self, text: str) -> list[str]:
        """The full author names the text writes (`canonical`), longest first where they overlap."""
        return list(dict.fromkeys(key for _, _, key in self.spans(text)))

    def joined(self, text: str) -> tuple[int, int, list[str]] | None:
        """The first names the text writes, with those joined to it by "and", "or" or commas
        ("Ada Lovelace and Alan Turing"): (start, end, the papers they wrote together, or each
        one's when they wrote none together or "or" joins them), or None."""
        spans = self.spans(text)
        if not spans:
            return None
        group, either = spans[:1], False
        for span in spans[1:]:
            between = text[group[-1][1] : span[0]]
            if not _JOINED.fullmatch(between):
                break
            group.append(span)
            either = either or _OR.search(between) is not None
        lists = [self.papers[name] for _, _, name in group]
        shared = [] if either else [p for p in lists[0] if all(p in other for other in lists[1:])]
        return group[0][0], group[-1][1], shared or list(dict.fromkeys(p for pids in lists for p in pids))

    def spans(self, text: str) -> list[tuple[int, int, str]]:
        """Each full author name the text writes: (start, end, `canonical` name), in order; the
        longest where names overlap."""
        words = [(m.start(), m.end(), w) for m in _WORD.finditer(text) for w in fold(m.group()).split()]
        found: list[tuple[int, int, str]] = []
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + MAX_NAME_WORDS), i + 1, -1):
                key = canonical(" ".join(w for _, _, w in words[i:j]))
                if key in self.papers:
                    found.append((words[i][0], words[j - 1][1], key))
                    i = j - 1
                    break
            i += 1
        return found


def surname(name: str) -> str:
    """The folded last word of a name ("Jeffrey A Chan Santiago" -> "santiago")."""
    parts = fold(name).split()
    return parts[-1] if parts else ""


class SurnameIndex:
    """Folded surname -> the papers whose first author has it, and those with any author of
    it: "Schaeffer et al." names a paper by its first author's surname."""

    def __init__(self, papers: dict[str, Paper]) -> None:
        self.first: dict[str, list[str]] = {}
        self.any: dict[str, list[str]] = {}
        for pid, p in papers.items():
            names = [s for s in (surname(a) for a in p.authors or []) if s]
            if names:
                self.first.setdefault(names[0], []).append(pid)
            for s in dict.fromkeys(names):
                self.any.setdefault(s, []).append(pid)

    def papers_of(self, name: str) -> list[str]:
        """The papers "<name> et al." can mean: by first author, else by any author."""
        key = surname(name)
        return self.first.get(key) or self.any.get(key, [])

    def coauthored(self, name: str) -> list[str]:
        """The papers with <name> as an author but not first (by convention not "<name> et al.")."""
        key = surname(name)
        first = set(self.first.get(key, []))
        return [p for p in self.any.get(key, []) if p not in first]
