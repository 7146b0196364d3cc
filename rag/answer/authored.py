"""A paper named by its authors: "What did Schaeffer et al. find?", "the paper by Schaeffer et
al.", "What does Rylan Schaeffer show?". No abstract writes its authors, so such a name was read
as a name no paper has, and the question refused. The reference is read as the papers it means
(by the first author's surname, else any author's; a full name as the records list it), and
the question asks "they" in its place. Pure functions of the question and the snapshot."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.index.authors import fold
from rag.index.snapshot import Snapshot
from rag.text.normalize import content_stems
from rag.types import Paper

# "Schaeffer et al.", "Schaeffer et al. (2025)", "Schaeffer et al.'s", "the paper by Schaeffer et al."
# (the surname's last word only: a capitalised word before it may open the question, "Summarize …")
_ET_AL = re.compile(
    r"(?P<paper>\b(?:the\s+)?(?:paper|work|study|article)\s+(?:by|from|of)\s+)?"
    r"(?P<name>[A-Z][\w'’-]*)\s+et\s+al\b\.?"
    r"(?:\s*\(?(?:19|20)\d\d\)?)?(?P<poss>['’]s\b)?"
)
_BY_NAME = r"(?P<paper>\b(?:the\s+)?(?:paper|work|study|article)\s+(?:by|from|of)\s+)?"
_PREPOSITION = re.compile(r"\b(?:to|by|from|of|in|with|for|than|like|about)\s*$", re.I)
_TOKEN = re.compile(r"[^\W\d_][\w'’.-]*")


@dataclass(frozen=True)
class AuthorRef:
    """A question's reference to papers by their authors."""

    question: str  # the question with "they" (or "their paper") in the reference's place
    papers: list[str]
    typed: str  # the reference as written ("Schaeffer et al.")


def author_ref(question: str, snap: Snapshot) -> AuthorRef | None:
    """The papers the question names by an author, or None: none named, or the question also
    names a paper (then "Steinke et al." is work that paper cites)."""
    found = _et_al(question, snap) or _full_name(question, snap)
    if found is None:
        return None
    start, end, pids, paper = found
    if snap.named_in(question) or snap.referenced_in(question):
        return None
    before = question[:start]
    said = "their paper" if paper else "them" if _PREPOSITION.search(before) else "they"
    if question[end:].startswith(("'s", "’s")):
        said, end = "their", end + 2
    rest = re.sub(r"\s{2,}", " ", f"{before}{said}{question[end:]}").strip()
    return AuthorRef(question=rest, papers=pids, typed=question[start:end].strip())


def _cited(name: str, snap: Snapshot) -> bool:
    """An abstract writes the surname: "Kaplan et al. (2020)" may well be the work a paper
    improves on, not the paper asked about (a dev_corpus question was refused when read so)."""
    return any(snap.vocabulary.df.get(s, 0) > 0 for s in content_stems(fold(name.split()[-1])))


def _et_al(question: str, snap: Snapshot) -> tuple[int, int, list[str], bool] | None:
    for m in _ET_AL.finditer(question):
        pids = snap.surnames.papers_of(m.group("name"))
        if pids and not _cited(m.group("name"), snap):
            end = m.end() - len(m.group("poss") or "")
            return m.start(), end, pids, bool(m.group("paper") or m.group("poss"))
    return None


def _full_name(question: str, snap: Snapshot) -> tuple[int, int, list[str], bool] | None:
    """The first full author name the question writes, with its span."""
    names = snap.authors.named(question)
    if not names:
        return None
    tokens = [(m.start(), m.end(), fold(m.group())) for m in _TOKEN.finditer(question)]
    for i in range(len(tokens)):
        for name in names:
            n = len(name.split())
            if " ".join(t[2] for t in tokens[i : i + n]) == name:
                start = i and _paper_lead(question, tokens[i][0])
                return start or tokens[i][0], tokens[i + n - 1][1], snap.authors.papers[name], bool(start)
    return None


def _paper_lead(question: str, at: int) -> int:
    """Where "the paper by" before a name starts, or 0."""
    m = re.search(rf"{_BY_NAME}$", question[:at])
    return m.start() if m and m.group("paper") else 0


def ref_note(ref: AuthorRef, papers: dict[str, Paper]) -> str:
    """What the reference was read as: the paper's title, or how many papers."""
    if len(ref.papers) == 1:
        p = papers[ref.papers[0]]
        authors = p.authors or []
        by = f" ({authors[0]}{' et al.' if len(authors) > 1 else ''})" if authors else ""
        return f"Read “{ref.typed}” as “{p.title or p.label}”{by}."
    return f"Answered among the {len(ref.papers)} indexed papers by “{ref.typed}”."
