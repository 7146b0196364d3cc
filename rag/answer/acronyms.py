"""The same term as an acronym and spelled out ("GNNs" and "graph neural networks"), as the
question's stems a coverage count would otherwise miss."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rag.text.normalize import STOPWORDS, content_stems

_TEXT_ACRONYM = re.compile(r"\b[A-Z][A-Za-z]?[A-Z]{1,5}s?\b")
_WORDS = re.compile(r"[A-Za-z][a-z]*")
ACRONYM_RUN_MAX = 6


def _initials_runs(words: list[str], letters: str) -> Iterator[list[str]]:
    """Runs of consecutive `words` whose initials spell `letters` (stopwords counted, so
    "out of distribution" is "ood"), or spell it with the stopwords of the run skipped. Either
    way a run starts with a word of the first letter and has at least as many words as
    letters: only those are looked at (this ran for every candidate paper of every answer)."""
    initials = "".join(w[0] for w in words)
    n = len(letters)
    start = initials.find(letters[0])
    while start >= 0:
        for j in range(start + max(2, n), min(start + ACRONYM_RUN_MAX, len(words)) + 1):
            run = words[start:j]
            if initials[start:j] == letters or (
                n > 2 and run[0] not in STOPWORDS and "".join(w[0] for w in run if w not in STOPWORDS) == letters
            ):
                yield run
        start = initials.find(letters[0], start + 1)


def _letters(acronym: str) -> str:
    """ "GNNs" -> "gnn": a lowercase plural s is not a letter of the acronym."""
    return (acronym[:-1] if acronym.endswith("s") else acronym).lower()


def acronym_stems(question: str, text: str) -> frozenset[str]:
    """The question's words a text writes as an acronym ("graph neural networks" where the
    paper says "GNNs"), and the question's acronyms a text spells out ("LLM" where it says
    "large language model"), as stems: the same terms in another form, which a coverage
    count by stems would miss."""
    q_words = [w.lower() for w in _WORDS.findall(question)]
    t_words = [w.lower() for w in _WORDS.findall(text)]
    out: set[str] = set()
    for acr in {m.group(0) for m in _TEXT_ACRONYM.finditer(text)}:
        for run in _initials_runs(q_words, _letters(acr)):
            out.update(content_stems(" ".join(run)))
    for acr in {m.group(0) for m in _TEXT_ACRONYM.finditer(question)}:
        if next(_initials_runs(t_words, _letters(acr)), None) is not None:
            out.update(content_stems(acr))
    return frozenset(out)
