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


class AuthorIndex:
    """Folded full author name -> the papers whose records list it; built once per snapshot."""

    def __init__(self, papers: dict[str, Paper]) -> None:
        self.papers: dict[str, list[str]] = {}
        for pid, p in papers.items():
            for name in p.authors or []:
                key = fold(name)
                if len(key.split()) >= 2:  # one word is no full name
                    self.papers.setdefault(key, []).append(pid)

    def named(self, text: str) -> list[str]:
        """The full author names the text writes (folded), longest first where they overlap."""
        words = fold(text).split()
        found: list[str] = []
        i = 0
        while i < len(words):
            for j in range(min(len(words), i + MAX_NAME_WORDS), i + 1, -1):
                key = " ".join(words[i:j])
                if key in self.papers:
                    found.append(key)
                    i = j - 1
                    break
            i += 1
        return list(dict.fromkeys(found))


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
