"""A label's long form as a name of its paper: "sparse tensor sketches" names the paper whose
abstract writes "Sparse Tensor Sketches (STS)" and is labelled STS. A user types the words as
often as the acronym; at 2,416 papers a question writing such a long form was answered from
another paper whose centroid is closer to the question."""

from __future__ import annotations

import re
from collections.abc import Mapping

from rag.text.normalize import fold, spaced_words
from rag.types import Paper

_ACRONYM = re.compile(r"[A-Z]{3,8}s?")
_HYPHENATED = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_SKIPPED = frozenset("of the a an for and with to in on by via".split())
LONG_FORM_MIN_WORDS = 3


def long_form(label: str, text: str) -> tuple[str, ...] | None:
    """The words before "(<label>)" in `text` whose initials spell the all-capitals label
    (small words may be skipped: "Mixture of Experts"), lowercase; None when there are none."""
    if not _ACRONYM.fullmatch(label):
        return None
    letters = label.rstrip("s").lower()
    for m in re.finditer(rf"\(\s*{re.escape(label)}\s*\)", text):
        before = fold(text[: m.start()]).casefold()
        # A hyphenated word gives one initial ("Sample-wise") or one per part ("One-Step").
        for tokens in (_HYPHENATED.findall(before), spaced_words(before).split()):
            run = _spelling_run(tokens[-(len(letters) + 4) :], letters)
            if run:
                found = tuple(spaced_words(" ".join(run)).split())
                return found if len(found) >= LONG_FORM_MIN_WORDS else None
    return None


def _spelling_run(words: list[str], letters: str) -> list[str] | None:
    """The shortest run ending the words whose initials spell `letters` (small words inside it
    may be skipped)."""
    for n in range(len(letters), len(words) + 1):
        run = words[-n:]
        if run[0] not in _SKIPPED and "".join(w[0] for w in run if w not in _SKIPPED or w == run[0]) == letters:
            return run
    return None


def long_form_table(papers: Mapping[str, Paper], naming: set[str]) -> dict[tuple[str, ...], set[str]]:
    """The long forms of the naming labels (as `spaced_words` words), with their papers."""
    out: dict[tuple[str, ...], set[str]] = {}
    for pid in naming:
        p = papers[pid]
        words = long_form(p.label, p.abstract)
        if words:
            out.setdefault(words, set()).add(pid)
    return out


# A long form another abstract writes too is a term of the field ("graph neural
# networks", "stochastic gradient descent"), not one paper's name, though a paper's label abbreviates
# it. (Two: at 2,416 papers it named such papers; one dev question gained, one test question was
# refused.)
LONG_FORM_MAX_PAPERS = 1


def long_forms_in(
    question: str, table: Mapping[tuple[str, ...], set[str]], spaced_texts: Mapping[str, str]
) -> set[str]:
    """Papers whose label's long form the question writes, in any case, when at most
    `LONG_FORM_MAX_PAPERS` abstracts (`spaced_words` of each) write it."""
    text = spaced_words(question)
    out: set[str] = set()
    for words, pids in table.items():
        phrase = f" {' '.join(words)} "
        if phrase in text and sum(phrase in t for t in spaced_texts.values()) <= LONG_FORM_MAX_PAPERS:
            out |= pids
    return out
