"""What the papers' records hold, not their abstracts: who wrote a paper, which papers a person
wrote, where a paper is (its link) and where it appeared (venue, year). Such an answer says it
is from the records, and cites each paper by a sentence of its abstract that says what the
paper is, so the paper shown is the one the record belongs to."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rag.answer.cite import CitationBuilder, cited_answer, display_sentence
from rag.answer.overview import subject
from rag.answer.selection import defining_sentence
from rag.index.authors import canonical, fold
from rag.index.snapshot import Snapshot
from rag.types import Answer, Citation, Paper, SentenceCheck, Source

MAX_PAPERS = 5  # "who wrote the papers on X?": the authors of the first few cited
FROM_RECORD = "From the papers' records (their metadata), not from the abstracts."
# What follows "who wrote" names a paper: a second question after it ("Who wrote X and what
# does it propose?") is no records question, nor is a verb after "the authors of X" ("The
# authors of X recommend what?"), though a description may have one ("who wrote the paper
# showing that …").
_ONE_QUESTION = r"(?![^?]*\b(?:and|but)\s+(?:what|how|why|which|where|when|who|is|are|does|do|did)\b)"
_NO_VERB = (
    r"(?![^?]*\b(?:recommend|propos|suggest|find|found|show|claim|argu|say|said|use|report|conclud|do|does|did"
    r"|think|believe|mean|want|need|compare|evaluat|achiev)\w*\b)"
)
_WHO = re.compile(
    r"^\s*(?:(?:can|could)\s+you\s+tell\s+me\s+|please\s+)?"
    r"(?:(?:who\s+(?:else\s+)?(?:wrote|authored|co-?authored|proposed|introduced|developed|created|invented|(?:is|are|was|were)\s+(?:the\s+)?(?P<nth>(?:first|last|lead|senior)\s+)?(?:authors?|people|researchers|team)"
    r"(?:\s+(?:of|behind|for))?|(?:is|are|was|were)\s+behind)"
    r"|(?:which|what)\s+(?:people|researchers|authors|team)\s+(?:wrote|authored|(?:are|is|were|was)\s+behind))"
    rf"(?:\s+{_ONE_QUESTION}(?P<rest>[^?]*?))?"
    rf"|(?:list\s+|name\s+|give\s+me\s+)?(?:the\s+)?(?P<nth2>(?:first|last|lead|senior)\s+)?authors?(?:\s+(?:of|for)\s+{_ONE_QUESTION}{_NO_VERB}(?P<rest2>[^?]*?))?)"
    r"\s*[?.!]*\s*$",
    re.I,
)
# "Give me the link to X", "Where can I read X?", "URL of X"; not the code or data ("where can I
# find the code?" is answered by the abstract's sentence that gives it).
_NOT_PAPER = (
    r"(?![^?]*\b(?:code|data|datasets?|weights|implementations?|repo|repository|github|checkpoints?|models?)\b)"
)
_LINK = re.compile(
    r"^\s*(?:(?:can|could)\s+you\s+|(?:can|could|may)\s+i\s+(?:get|have|see)\s+|please\s+)?"
    r"(?:(?:give|send|show)\s+(?:me\s+)?|share\s+|what(?:'s|\s+is)\s+)?"
    rf"(?:the\s+|a\s+)?(?:link|url|pdf|openreview(?:\s+(?:link|page))?|web\s*page)(?:\s+(?:to|for|of)\s+{_NOT_PAPER}"
    r"(?P<rest>[^?]+?))?\s*[?.!]*\s*$"
    rf"|^\s*where\s+(?:can|do|could)\s+i\s+(?:read|find|get|download)\s+{_NOT_PAPER}(?P<rest2>[^?]+?)(?:\s+online)?"
    r"\s*[?.!]*\s*$",
    re.I,
)
# "When was X published?", "Which conference is X from?"; not "where did the gains come from?".
_VENUE = re.compile(
    r"^\s*(?:when|where)\s+(?:was|were|is|did)\s+(?P<rest>[^?]+?)\s+(?:published|appear(?:ed)?|presented|accepted)"
    r"\s*[?.!]*\s*$"
    r"|^\s*(?:in\s+)?(?:which|what)\s+(?:year|venue|conference)\s+(?:was|were|is|did)\s+(?P<rest2>[^?]+?)\s+"
    r"(?:published|appear(?:ed)?|presented|accepted|from)(?:\s+(?:at|in|on))?\s*[?.!]*\s*$",
    re.I,
)
# "What is the title of X?", "What's X's full title?"
_TITLE = re.compile(
    r"^\s*(?:(?:can|could)\s+you\s+(?:tell|give)\s+me\s+|(?:please\s+)?give\s+me\s+)?(?:what(?:'s|\s+is|\s+was)\s+)?"
    r"(?:the\s+)?(?:full\s+|exact\s+|complete\s+)?title\s+of\s+(?P<rest>[^?]+?)\s*[?.!]*\s*$"
    r"|^\s*what(?:'s|\s+is)\s+(?P<rest2>[^?]+?)['’]s\s+(?:full\s+|exact\s+)?title\s*[?.!]*\s*$",
    re.I,
)
# "Which papers are by X?", "What did X write?", "papers by X", "X's papers".
_BY = re.compile(
    r"\b(?:papers?|works?|abstracts?)\b[^?]{0,30}\b(?:by|from)\s+(?P<a>[^?]+)"
    r"|\bwhat\s+(?:else\s+)?(?:did|has|have|does)\s+(?P<b>[^?]+?)\s+(?:write|written|author(?:ed)?|co-?author(?:ed)?|publish(?:ed)?)\b"
    # "Which other papers did X write?"
    r"|\b(?:which|what)\s+(?:other\s+)?(?:papers?|works?)\s+(?:did|has|have|does)\s+(?P<d>[^?]+?)\s+"
    r"(?:write|written|author(?:ed)?|co-?author(?:ed)?|publish(?:ed)?)\b"
    # "X's papers" as the whole request, not "how many methods does X's work outperform?"
    r"|^\s*(?:(?:list|show(?:\s+me)?|find|give\s+me|what\s+are)\s+)?(?P<c>[^?]+?)'s\s+(?:papers?|works?)\s*[?.!]*\s*$",
    re.I,
)


def asks_who_wrote(question: str) -> str | None:
    """What "who wrote …?" asks about ("the ZebraLogic paper"; "" for "who are the authors?"),
    or None when the question asks something else."""
    asked = record_asked(question)
    return asked[1] if asked and asked[0] == "authors" else None


def record_asked(question: str) -> tuple[str, str] | None:
    """(the record's field asked for: "authors", "first author", "last author", "url", "venue" or "title";
    what it is asked of), or None."""
    for field, pattern in (("authors", _WHO), ("url", _LINK), ("venue", _VENUE), ("title", _TITLE)):
        m = pattern.match(question)
        if m is not None:
            found = m.groupdict()
            nth = (found.pop("nth", None) or found.pop("nth2", None) or "").strip().lower()
            rest = next((g for g in found.values() if g), "").strip()
            return (f"{_NTH.get(nth, 'first')} author" if nth else field), rest
    return None


# "Who is the last author of X?": one name of the list (a senior author is listed last)
_NTH = {"first": "first", "lead": "first", "last": "last", "senior": "last"}
_ONE_PAPER = re.compile(r"(?:paper|work|abstract)\b", re.I)
_ET_AL = re.compile(r"^\s*(?P<name>[A-Z][\w-]*)\s+et\s+al\b\.?\s*$")


def asked_authors(question: str, snap: Snapshot) -> list[str]:
    """The papers of the indexed authors whose papers the question asks for, by full name or as
    "X et al." (the papers of first-author surname X)."""
    m = _BY.search(question)
    # "Tell me about the paper by X": what it is (`authored`), not its record.
    if m is None or (_ONE_PAPER.match(m.group()) and subject(question, about=True) is not None):
        return []
    asked = next(g for g in m.groups() if g)
    et_al = _ET_AL.match(asked)
    if et_al:
        return snap.surnames.papers_of(et_al.group("name"))
    found = snap.authors.joined(asked)
    # "What does the paper by X find about Y?" asks what one of X's papers says (`authored`).
    if found is None or re.search(r"\w", asked[found[1] :]):
        return []
    return found[2]


# "What else did they write?": the authors of the paper under discussion
_THEY = re.compile(r"^(?:they|them|these|those|the(?:se|\s+same)?\s+authors|its\s+authors|he|she)$", re.I)
_OTHER = re.compile(r"\b(?:other|else|more)\b", re.I)


def asks_papers_by(question: str) -> bool:
    """The question asks for papers by someone ("papers by X", "What else did they write?")."""
    return _BY.search(question) is not None


def by_authors_of(question: str, discussed: list[str], snap: Snapshot) -> list[str] | None:
    """In a conversation, the papers a records question asks for: those of the discussed
    papers' authors when it asks for "their" papers, without the discussed ones when it asks
    for others ("Which other papers did X write?"); None when it asks for neither."""
    m = _BY.search(question)
    if m is None or not discussed:
        return None
    asked = next(g for g in m.groups() if g).strip()
    if _THEY.match(asked):
        names = {canonical(fold(a)) for p in discussed for a in snap.papers[p].authors or []}
        pids = list(dict.fromkeys(p for n in sorted(names) for p in snap.authors.papers.get(n, [])))
    else:
        pids = asked_authors(question, snap)
    if not pids:
        return None
    return [p for p in pids if p not in discussed] if _OTHER.search(question) else pids


def from_record(question: str, field: str, inner: Answer, papers: Mapping[str, Paper]) -> Answer:
    """The `field` of the papers `inner` (the answer to "what is <the paper asked about>?")
    cites, each line cited by the sentence `inner` led with for that paper; a paper whose
    record lacks the field is left out (none left: refused)."""
    first: dict[str, Citation] = {}
    for c in inner.citations:
        first.setdefault(c.paper_id, c)
    lines = []
    for pid, c in list(first.items())[:MAX_PAPERS]:
        line = _record_line(papers[pid], field)
        if line:
            lines.append((papers[pid], c.quote, line))
    a = _answer(question, lines)
    a.sources, a.closest = inner.sources, inner.closest if a.refused else []
    return a


def _record_line(p: Paper, field: str) -> str | None:
    if field == "authors":
        return f"{quoted_title(p)} is by {_names(p.authors)}." if p.authors else None
    if field in ("first author", "last author"):
        if not p.authors:
            return None
        return f"The {field} of {quoted_title(p)} is {p.authors[0 if field == 'first author' else -1]}."
    if field == "url":
        return f"{quoted_title(p)} is at {p.url}" if p.url else None
    if field == "title":
        return f"The paper's title is {quoted_title(p)}." if p.title else None
    where = p.venue or (str(p.year) if p.year else None)
    return f"{quoted_title(p)} is from {where}." if where else None


def papers_by(question: str, pids: list[str], snap: Snapshot) -> Answer:
    """The papers an author wrote (`asked_authors`), one line each: title and authors, cited by
    the sentence that says what the paper is."""
    lines = []
    for pid in pids:
        p = snap.papers[pid]
        quote = defining_sentence([q for _, q in snap.paper_quotes(pid)], p.label)
        if quote:
            lines.append((p, quote, f"{quoted_title(p)} ({_names(p.authors or [])})."))
    a = _answer(question, lines, listed=True)
    a.sources = [Source(paper_id=p.paper_id, score=1.0) for p, _, _ in lines]
    return a


def _answer(question: str, lines: list[tuple[Paper, str, str]], *, listed: bool = False) -> Answer:
    builder = CitationBuilder()
    text: list[str] = []
    checks: list[SentenceCheck] = []
    for paper, quote, line in lines:
        n = builder.cite(paper, quote)
        cited = f"{display_sentence(line)} [{n}]"
        text.append(f"- {cited}" if listed or len(lines) > 1 else cited)
        checks.append(SentenceCheck(text=line, citations=[n], supported=True, evidence_quote=quote, reason=FROM_RECORD))
    return cited_answer(question, text, builder, checks, note=FROM_RECORD if text else None)


def quoted_title(p: Paper) -> str:
    """The paper's title in quotes, as an answer names it (its label when it has none)."""
    return f"“{p.title}”" if p.title else p.label


def _names(authors: list[str]) -> str:
    return authors[0] if len(authors) == 1 else f"{', '.join(authors[:-1])} and {authors[-1]}"


def from_records(question: str, snap: Snapshot) -> bool:
    """The question is answered from the papers' records (an LLM has nothing to add)."""
    m = _BY.search(question)
    theirs = m is not None and _THEY.match(next(g for g in m.groups() if g).strip()) is not None
    return record_asked(question) is not None or theirs or bool(asked_authors(question, snap))
