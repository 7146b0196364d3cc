"""A phrase in quotes is asked word for word: 'Which paper says "adaptive residual feedback"?',
'I saw the phrase "…" - which paper is it?'. Read as ordinary words, such a question was answered
(at 2,416 papers, one in five of a random probe) from a paper that does not write the phrase.
The papers whose abstracts write it are the ones answered from; asked only where it comes from,
the answer is each such paper's sentence that writes it."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rag.answer.cite import CitationBuilder, cited_answer, display_sentence
from rag.answer.list_question import LIST_MAX
from rag.answer.selection import defining_sentence
from rag.index.snapshot import Snapshot
from rag.text.normalize import content_stems, spaced_words
from rag.types import Answer, SentenceCheck, Source

# Double quotes of any kind; single quotes only around a span that is no apostrophe ("it's").
_QUOTES = re.compile(r"[\"“”„«»]([^\"“”„«»]{3,300})[\"“”„«»]|(?<![\w])['‘’]([^'‘’]{3,300})['‘’](?![\w])")
MIN_WORDS = 2  # one quoted word is a term, and names are read as names already
# What a question asking only where a phrase comes from adds to it.
_LOCATE = frozenset(
    content_stems(
        "which what where paper papers work works study article abstract abstracts say says said mention mentions "
        "contain contains write writes wrote use uses come comes from phrase sentence term words word quote "
        "quoted saw see seen read source appear appears find found is it this that"
    )
)


def quoted_phrases(question: str) -> list[str]:
    """The quoted spans of the question that are phrases (two words or more), as written."""
    spans = (next(g for g in m.groups() if g) for m in _QUOTES.finditer(question))
    return [s.strip() for s in spans if len(spaced_words(s).split()) >= MIN_WORDS]


def writing(phrases: list[str], texts: Mapping[str, str]) -> list[str]:
    """Ids of the `texts` (already `plain`) that write every phrase."""
    wanted = [spaced_words(p) for p in phrases]
    return [pid for pid, text in texts.items() if all(w in text for w in wanted)]


def quoted_spans(question: str) -> list[tuple[int, int]]:
    """Where the quoted spans of the question are (quotes included)."""
    return [m.span() for m in _QUOTES.finditer(question)]


def unquoted(question: str) -> str:
    """The question without its quoted spans."""
    return _QUOTES.sub(" ", question)


def asks_only_where(question: str, phrases: list[str]) -> bool:
    """The question asks only where the phrases come from ("Which paper says "…"?")."""
    return not set(content_stems(unquoted(question))) - _LOCATE


def sentence_with(phrases: list[str], quotes: list[str]) -> str | None:
    """The first sentence of a paper that writes a phrase (the first phrase first)."""
    for phrase in phrases:
        for quote in quotes:
            if spaced_words(phrase) in spaced_words(quote):
                return quote
    return None


LOCATED_MAX = LIST_MAX  # papers shown for "which paper says …": as many as a list question's
WRITES = "The abstract writes the quoted phrase word for word."


def located(question: str, phrases: list[str], pids: list[str], snap: Snapshot) -> Answer:
    """Each paper that writes the phrases, cited by its sentence that writes the first one
    found (its defining sentence when the phrase is in its title, or spans two sentences)."""
    builder = CitationBuilder()
    lines: list[str] = []
    checks: list[SentenceCheck] = []
    shown = pids[:LOCATED_MAX]
    for pid in shown:
        paper = snap.papers[pid]
        quotes = [q for _, q in snap.paper_quotes(pid)]
        quote = sentence_with(phrases, quotes) or defining_sentence(quotes, paper.label) or (quotes or [""])[0]
        if not quote:
            continue
        n = builder.cite(paper, quote)
        text = display_sentence(quote)
        lines.append(f"{text} [{n}]" if len(shown) == 1 else f"- {paper.label}: {text} [{n}]")
        checks.append(SentenceCheck(text=quote, citations=[n], supported=True, evidence_quote=quote, reason=WRITES))
    said = ", ".join(f"“{p}”" for p in phrases)
    n = len(pids)
    note = f"{n} indexed {'abstract writes' if n == 1 else 'abstracts write'} {said}" + (
        f"; the first {LOCATED_MAX} are shown." if n > LOCATED_MAX else "."
    )
    a = cited_answer(question, lines, builder, checks, note=note)
    a.sources = [Source(paper_id=p, score=1.0) for p in shown]
    return a
