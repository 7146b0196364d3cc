"""Asks for a guarantee ("What coverage guarantee does the latter give?", "what does it
guarantee?"): the sentence that states a proven property answers them, wherever it ranks
among the paper's sentences about the topic."""

from __future__ import annotations

import re

from rag.answer.need import Need, matches
from rag.text.normalize import content_stems

_ASKS_GUARANTEE = re.compile(
    r"\b(?:what|which)\s+(?:[\w-]+\s+){0,3}?(?:guarantees?|theoretical\s+(?:results?|properties|analysis))\b"
    r"|\bwhat\s+(?:does|do|did|can)\s+(?:[\w-]+\s+){1,4}?(?:guarantee|prove)\b"
    # "Do they back it up with any theory?", "what theoretical and empirical evidence …?"
    # (not "has any theory worked out X?", which asks for X)
    r"|\b(?:any|some)\s+(?:theory|theoretical\s+\w+|guarantees?|proofs?)\s*(?:[?.]|$)"
    r"|\btheoretical\s+(?:and\s+empirical\s+)?(?:evidence|support|backing|justification|grounding)\b",
    re.I,
)
# A proven property: "we establish X to cover", "is guaranteed to", "we prove", "a bound".
STATES_GUARANTEE = re.compile(
    r"\b(?:guarantee\w*|theoretical(?:ly)?|prov(?:e|es|ed|en|ably|able)|proofs?|establish\w*|theorems?"
    r"|bounds?|bounded|certif\w*|consisten(?:t|cy)|valid(?:ity)?)\b",
    re.I,
)

# A proof in so many words: such a sentence answers wherever it ranks; "bounds" or "valid" may
# name something else ("the upper confidence bounds algorithm").
STATES_PROOF = re.compile(r"\b(?:guarantee\w*|prov(?:e|es|ed|en|ably|able)|proofs?|theorems?)\b", re.I)


def guarantee_needs(question: str) -> list[Need]:
    """A proof leads wherever it ranks, else a proven property when within the loose margin;
    neither refuses (a property may be stated plainly)."""
    if not _ASKS_GUARANTEE.search(question):
        return []
    return [
        Need("a proof", matches(STATES_PROOF), required=False, specific=True),
        Need("a guarantee", matches(STATES_GUARANTEE), required=False, loose=True),
    ]


# "Do they back it up with any theory?", "is it provable?": words for a proven result.
_THEORY = re.compile(r"\b(?:theor\w*|guarantee\w*|provabl[ey]|proofs?)\b", re.I)


def theory_forms(question: str, text: str) -> frozenset[str]:
    """Stems of the question's words for theory when the text states a proven property in its
    own words ("we establish sample complexity guarantees" answers "any theory?")."""
    if not STATES_GUARANTEE.search(text):
        return frozenset()
    return frozenset(s for w in _THEORY.findall(question) for s in content_stems(w))
