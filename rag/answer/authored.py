"""A paper named by its authors: "What did Schaeffer et al. find?", "the paper by Schaeffer et
al.", "Snell and Griffiths", "Ceriotti's group", "What does Rylan Schaeffer show?". No abstract writes its authors, so such a name was read
as a name no paper has, and the question refused. The reference is read as the papers it means
(by the first author's surname, else any author's; two surnames; a full name as the records
list it), and
the question asks "they" in its place. Pure functions of the question and the snapshot."""

from __future__ import annotations

import re
from dataclasses import dataclass

from rag.answer.overview import refers_back, subject
from rag.index.authors import canonical, fold, surname
from rag.index.snapshot import Snapshot
from rag.text.normalize import content_stems, writes_name
from rag.types import Paper

# "Schaeffer et al.", "Schaeffer et al. (2025)", "Schaeffer et al.'s" (the surname's last word:
# a capitalised word before it may open the question, "Summarize …"; a full name is looked up)
_ET_AL = re.compile(r"(?P<name>[A-Z][\w-]*)\s+et\s+al\b\.?(?:\s*\(?(?:19|20)\d\d\)?)?")
# "Snell and Griffiths", "Snell & Griffiths"
_TWO = re.compile(r"\b(?P<a>[A-Z][\w-]*)\s+(?:and|&)\s+(?P<b>[A-Z][\w-]*)\b(?!\s+et\s+al\b)")
# "Ceriotti's group", "Mueller's paper", "the Mueller paper", "Grosse and colleagues"
_ONE = re.compile(
    r"\b(?P<name>[A-Z][\w-]*)(?=['’]s\s+(?:group|lab|team|paper|work|study|article)\b)"
    r"|\bthe\s+(?P<name2>[A-Z][\w-]*)(?=\s+(?:paper|work|study|article)\b)"
    r"|\b(?P<name3>[A-Z][\w-]*)(?=\s*,?\s+(?:and|&)\s+(?:his\s+|her\s+|their\s+)?(?:colleagues|co-?authors|collaborators|team)\b)"
)
# "the paper by", "the work of" before a name: "their paper" replaces both
_LEAD = re.compile(
    r"\b(?:the\s+)?(?:(?P<n>two|three|four|five|\d+)\s+)?(?P<kind>papers?|works?|study|studies|articles?)\s+(?:by|from|of)\s+$",
    re.I,
)
_FULL_NAME_WORDS = 3  # words before a surname looked up as a full name ("Bill Yuchen Lin et al.")
_OTHERS = re.compile(
    r"\s*,?\s+(?:and|&)\s+(?:his\s+|her\s+|their\s+)?(?:colleagues|co-?authors|collaborators|team)\b", re.I
)
_BY_END = re.compile(r"\s*,?\s*\b(?:by|from)\s*$", re.I)
_PREPOSITION = re.compile(r"\b(?:to|by|from|of|in|with|for|than|like|about)\s*$", re.I)
_WORD = re.compile(r"[^\W_]+")
_WHICH_OF_THEIRS = re.compile(r"^(\s*(?:which|what))\s+of\s+(?:their\s+(?:papers|works)|them)\b", re.I)
_SINGULAR_VERB = re.compile(r"^(\s*(?:\w+\s+)?)(has|does|is|was)\s+they\b", re.I)
_PLURAL = {"has": "have", "does": "do", "is": "are", "was": "were"}
_AUXILIARY = re.compile(r"\b(?:do|does|did|will|would|can|could|should|might|may)\s+$", re.I)

Span = tuple[int, int, list[str]]


@dataclass(frozen=True)
class AuthorRef:
    """A question's reference to papers by their authors."""

    question: str  # the question with "they" (or "their paper") in the reference's place
    papers: list[str]
    typed: str  # the reference as written ("Schaeffer et al.")
    named: bool = False  # one paper, named in `question` by its name or title's words


def author_ref(question: str, snap: Snapshot) -> AuthorRef | None:
    """The papers the question names by an author, or None: none named, or the question also
    names a paper none of theirs is or writes (then "Steinke et al." is work that paper cites,
    `_naming_too`). A surname some abstract
    writes ("Kaplan et al. (2020)") is read as the authors only when the question asks nothing
    else of them ("What does the paper by Li et al. propose?")."""
    # Full names before surname pairs: "Lin Yang and Chen Li" are two people, not Yang and Chen.
    found = _et_al(question, snap) or _full_name(question, snap) or _two(question, snap) or _one(question, snap)
    cited = found is None
    found = found or _et_al(question, snap, cited=True)
    if found is None:
        return None
    also = snap.named_in(question) | snap.referenced_in(question)
    if also:
        found = _naming_too(found, also, snap)
        if found is None:
            return None
    start, end, said = _reference(question, *found[:2])
    pids = found[2]
    rest = _agreeing(re.sub(r"\s{2,}", " ", f"{question[:start]}{said}{question[end:]}").strip())
    if cited and not _asks_of_them(rest):
        return None
    if len(pids) == 1:
        before = question[:start]
        if pids[0] in also and (by := _BY_END.search(before)):  # "CacheZip by Lovelace et al.": the name says it
            named, before = "", before[: by.start()]
        else:
            named = spoken_name(pids[0], snap, said)
        rest = re.sub(r"\s{2,}", " ", f"{before}{named}{question[end:]}").strip()
    return AuthorRef(question=rest, papers=pids, typed=question[start:end].strip(), named=len(pids) == 1)


def _naming_too(found: Span, named: set[str], snap: Snapshot) -> Span | None:
    """A question that names a paper as well ("Grosse and colleagues' k-DPP sampler", "Ben-Kish
    et al.'s results on LongBench"): the authors' papers that are the one named or write its
    name; none of them, and "Steinke et al." is work the named paper cites."""
    start, end, pids = found
    labels = [snap.papers[p].label for p in named]
    kept = [p for p in pids if p in named or any(writes_name(snap.papers[p].abstract, lab) for lab in labels)]
    return (start, end, kept) if kept else None


def _agreeing(rest: str) -> str:
    """The question with "they" in a name's place made whole again: "Has they worked on X?" ->
    "Have they …", and "Which of their papers is about X?" -> "Which papers is about X?" (the
    question is asked among their papers already)."""
    rest = _WHICH_OF_THEIRS.sub(r"\1 papers", rest)

    def plural(m: re.Match[str]) -> str:
        verb = _PLURAL[m.group(2).lower()]
        return f"{m.group(1)}{verb.capitalize() if m.group(2)[0].isupper() else verb} they"

    return _SINGULAR_VERB.sub(plural, rest)


def _reference(question: str, start: int, end: int) -> tuple[int, int, str]:
    """The reference's whole span ("the paper by X et al.", "X's group") and the words that
    stand for it: "they", "them", "their paper" or "their"."""
    lead = _LEAD.search(question[:start])
    if lead:
        start = lead.start()
    plural = lead is not None and (lead.group("n") is not None or lead.group("kind").lower().endswith(("s", "ies")))
    said = (
        ("their papers" if plural else "their paper")
        if lead
        else "them"
        if _PREPOSITION.search(question[:start])
        else "they"
    )
    if question[end:].startswith(("'s", "’s")):
        said, end = "their", end + 2
    noun = re.match(r"\s+(?:paper|work|study|article|group|lab|team)\b", question[end:])
    if noun and not _verb(
        question, start, noun.group(), said
    ):  # "the Mueller paper", "Gan's paper", "Ceriotti's group" -> "their paper"
        said, end = "their paper", end + noun.end()
    others = _OTHERS.match(question[end:])
    if others:  # "Mubarak Shah and colleagues" is the same reference
        end += others.end()
    return start, end, said


def _verb(question: str, start: int, word: str, said: str) -> bool:
    """ "What did Osama Hanna study?": after an auxiliary, the name is the subject and "study"
    or "work" its verb (not after "the" or a possessive: "What did the Mueller study find?")."""
    return (
        word.split()[0] in ("study", "work")
        and said != "their"
        and not question[start:].lower().startswith("the ")
        and _AUXILIARY.search(question[:start]) is not None
    )


def _asks_of_them(rest: str) -> bool:
    """The question asks what their paper is or found, and nothing else."""
    about = subject(rest, about=True)
    return about is not None and refers_back(about)


def spoken_name(pid: str, snap: Snapshot, said: str = "they", *, coined_first: bool = True) -> str:
    """The paper named as a user would name it in `said`'s place (`_as_named`); not
    `coined_first`: by its title's words, which say more of what it is than an acronym does."""
    paper = snap.papers[pid]
    coined = coined_first and pid in snap.naming and snap.label_counts[paper.label.lower()] == 1
    return _as_named(said, paper, coined)


def _as_named(said: str, paper: Paper, coined: bool) -> str:
    """One paper: named as if the user had named it, by its coined name (no other paper's) or its title's words
    ("What did they find?" -> "What did the GLGENN paper find?"), so the question is read as
    naming that paper. Marks are left out of a title: a colon in a question reads as a clause."""
    words = _WORD.findall(paper.title or paper.label)
    if words and words[0].lower() == "the":  # "the The dark side of the forces … paper"
        words = words[1:]
    # The coined name as written ("MGD$^3$"); a title's words without its colon
    name = paper.label if coined and ":" not in paper.label else " ".join(words)
    named = f"the {name} paper"
    return {"their": f"{named}'s"}.get(said, named)


def _cited(name: str, snap: Snapshot) -> bool:
    """An abstract writes the surname: "Kaplan et al. (2020)" may well be the work a paper
    improves on, not the paper asked about (a dev_corpus question was refused when read so)."""
    return fold(name.split()[-1]) in snap.proper_words


def _et_al(question: str, snap: Snapshot, *, cited: bool = False) -> Span | None:
    """ "X et al.": a full name ending in X the records list (its papers as first author, else
    all), else the papers of surname X (`cited`: only a surname some abstract writes)."""
    for m in _ET_AL.finditer(question):
        full = _full_name_before(question, m.start(), m.group("name"), snap)
        if full is not None and not cited:
            return full[0], m.end(), full[1]
        pids = snap.surnames.papers_of(m.group("name"))
        if pids and _cited(m.group("name"), snap) is cited:
            return m.start(), m.end(), _fitting(question, pids, snap.surnames.coauthored(m.group("name")), snap)
    return None


def _fitting(question: str, first: list[str], others: list[str], snap: Snapshot) -> list[str]:
    """ "Bresler et al." means Bresler's first-author papers, unless the question's topic fits a
    paper Bresler co-wrote better (writers use "et al." for any author): the papers sharing the
    most of the question's words, first authors' on a tie."""
    if not others:
        return first
    asked = set(content_stems(question))
    fit = {
        p: len(asked & (snap.vocabulary.paper_stems.get(p, set()) | set(content_stems(snap.papers[p].title or ""))))
        for p in first + others
    }
    best = max(fit.values())
    return [p for p in first if fit[p] == best] or [p for p in others if fit[p] == best]


def _full_name_before(question: str, at: int, last: str, snap: Snapshot) -> tuple[int, list[str]] | None:
    words = list(_WORD.finditer(question[:at]))
    for k in range(min(_FULL_NAME_WORDS, len(words)), 0, -1):
        key = canonical(fold(" ".join([*(w.group() for w in words[-k:]), last])))
        pids = snap.authors.of(key)
        if pids:
            first = [p for p in pids if canonical(fold((snap.papers[p].authors or [""])[0])) == key]
            return words[-k].start(), first or pids
    return None


def _two(question: str, snap: Snapshot) -> Span | None:
    """ "Snell and Griffiths": the papers both surnames are authors of."""
    for m in _TWO.finditer(question):
        a, b = m.group("a"), m.group("b")
        if _cited(a, snap) or _cited(b, snap):
            continue
        pids = [p for p in snap.surnames.any.get(surname(a), []) if p in set(snap.surnames.any.get(surname(b), []))]
        if pids:
            return m.start(), m.end(), pids
    return None


def _one(question: str, snap: Snapshot) -> Span | None:
    """ "Ceriotti's group", "the Mueller paper": that surname's papers (first author first)."""
    for m in _ONE.finditer(question):
        name = m.group("name") or m.group("name2") or m.group("name3")
        pids = snap.surnames.papers_of(name)
        if pids and not _cited(name, snap):
            at = m.start() if m.group("name2") else m.start("name") if m.group("name") else m.start("name3")
            return at, m.end(), pids
    return None


def _full_name(question: str, snap: Snapshot) -> Span | None:
    """The first full author names the question writes ("Chuang Gan's paper"), with their span
    (`AuthorIndex.joined`)."""
    return snap.authors.joined(question)


def ref_note(ref: AuthorRef, papers: dict[str, Paper]) -> str:
    """What the reference was read as: the paper's title, or how many papers."""
    if len(ref.papers) == 1:
        p = papers[ref.papers[0]]
        authors = p.authors or []
        by = f" ({authors[0]}{' et al.' if len(authors) > 1 else ''})" if authors else ""
        return f"Read “{ref.typed}” as “{p.title or p.label}”{by}."
    return f"Answered among the {len(ref.papers)} indexed papers by “{ref.typed}”."
