"""A paper referred to by a short description before "paper", "work" or "study": "Does the
missing-labels evaluation paper use deep learning?", "In the stochastic rounding work, …". The
answer must come from a paper that the description fits; with thousands of papers indexed, the
rest of the question ("use deep learning") finds strangers that fit it better."""

from __future__ import annotations

import re

from rag.answer.accept import Accepted, Trial, answers_alone
from rag.text.normalize import content_stems
from rag.types import Hit

# Its words are no determiners: "the recovery algorithm in the paper" describes no paper.
_DESCRIBED = re.compile(
    r"\bthe\s+((?:(?!(?:the|a|an|this|that|these|those|its|their|our|his|her)\b)[\w$\\{}-]+\s+){1,5}?)"
    r"(paper|work|study|article)\b"
    # "the theoretical study of how attention selects tokens": what follows describes it, the
    # word before only says what kind of study it is.
    r"(?!\s+(?:of|on|about|that|which|where|into|for|by|from|with|in|to)\b)",
    re.I,
)
# "the first paper", "the same work", "the authors' study": no description of a paper.
_NOT_DESCRIPTION = re.compile(
    r"^(?:first|second|third|fourth|last|latest|same|other|this|that|above|previous|earlier|later|new|original"
    r"|cited|whole|entire|former|latter|one|two|three|current|present|related|prior|existing|author|authors'?)\b",
    re.I,
)
# "the authors study", "the models work": a plural noun before "study" or "work" is its subject.
_PLURAL_SUBJECT = re.compile(r"(?<![isu])s\s*$", re.I)
DESCRIBED_POOL = 10  # the first papers retrieved, among which the described one is looked for


def description(question: str) -> set[str]:
    """The stems of the descriptions the question gives its paper by ("the missing-labels
    evaluation paper" -> missing, label, evaluation); empty when it gives none."""
    stems: set[str] = set()
    for m in _DESCRIBED.finditer(question):
        words, head = m.group(1), m.group(2).lower()
        if _NOT_DESCRIPTION.match(words) or (head in ("work", "study") and _PLURAL_SUBJECT.search(words)):
            continue
        stems.update(content_stems(words.replace("-", " ")))
    return stems


def described_paper(t: Trial, accepted: Accepted) -> Accepted:
    """The answer from the paper the question's description fits: when the answering (or first)
    paper's title lacks a word of the description and the title of one of the first few papers
    has them all, that paper answers, or nobody does (it was the paper meant, and its abstract
    does not say)."""
    r = t.r
    stems = description(t.query.question)
    if not stems or not r.hits:
        return accepted
    first = accepted[0][0] if accepted else r.hits[0]
    if stems <= _title_stems(first):
        return accepted
    # The title, not the abstract: a description's words are often generic ("high-dimensional",
    # "estimation"), and an abstract that writes them all is no sign of the paper meant.
    fitting = [h for h in r.hits[:DESCRIBED_POOL] if stems <= _title_stems(h)]
    if not fitting:  # described in other words than a title's: nothing to go by
        return accepted
    meant = fitting[0]
    t.why.append(f"described as {sorted(stems)}: {meant.paper_id}'s title fits, {first.paper_id}'s does not")
    return answers_alone(t, meant)


def _title_stems(hit: Hit) -> set[str]:
    return set(content_stems(f"{hit.label} {hit.title or ''}".replace("-", " ")))
