"""Questions of a conversation that lean on it without a pronoun. One with no topic of its own
("Which models performed best?": every word common among the indexed papers) is asked of the
paper under discussion; a stranger that covers its few words had answered it. One that names
something of the paper under discussion by a definite description ("Which kernels does the lower bound cover?" after an
answer on a regret lower bound; "What does the multi-step variant improve?" of a paper that
introduces one), refers to that paper: the description's words are the paper's, and either the
last answer just used them or one of them is rare among the indexed papers. Without this, such
a question stood alone, and with thousands of papers indexed it was refused. Pure functions of
the text and the vocabulary."""

from __future__ import annotations

import re
from collections.abc import Set

from rag.index.vocabulary import Vocabulary
from rag.text.normalize import content_stems

# "the lower bound", "the multi-step variant": up to three words after "the".
_DEFINITE = re.compile(r"\bthe\s+([\w-]+(?:\s+[\w-]+){0,2})", re.I)
# Heads that name any paper's parts ("the method", "the results"): the referring rule
# (`evidence.is_referring`) reads those; as descriptions they single nothing out.
_GENERIC = re.compile(
    r"(?:paper|method|approach|model|framework|result|work|study|author|problem|task|dataset|benchmark"
    r"|experiment|performance|algorithm|system|technique)s?|studies|data|proposed|new|best|main|key|same|other",
    re.I,
)
# A question whose every content word is used by more than this share of the indexed papers
# names no topic ("models" 67%, "best" 8.5%; "kernels" 4.4%, "runtime" 1% do).
TOPIC_SHARE = 0.05
RARE_SHARE = 0.02  # a description word used by at most this share of the indexed papers singles a paper out


def describes(question: str, paper_stems: Set[str], last_answer: str, vocab: Vocabulary) -> bool:
    """The question describes a thing of the paper (its `paper_stems`) with "the <words>": a
    run of two or more words, or one rare word, all the paper's, just said in `last_answer`
    or one of them rare."""
    said = set(content_stems(last_answer))
    for m in _DEFINITE.finditer(question):
        words = m.group(1).split()
        # A description ends at its head when that is generic ("the method improve …").
        head = next((i for i, w in enumerate(words) if _GENERIC.fullmatch(w)), None)
        words = words if head is None else words[: head + 1]
        for n in range(len(words), 0, -1):  # the longest run the paper writes
            stems = set(content_stems(" ".join(words[:n])))
            named = [w for w in words[:n] if not _GENERIC.fullmatch(w)]
            if not stems or not stems <= paper_stems or not named:
                continue
            rare = any(vocab.df.get(s, 0) <= RARE_SHARE * vocab.n for s in content_stems(" ".join(named)))
            if (len(stems) > 1 or rare) and (rare or stems <= said):
                return True
            break
    return False


def topicless(question: str, vocab: Vocabulary) -> bool:
    """Every content word of the question is common among the indexed papers."""
    stems = content_stems(question)
    return bool(stems) and all(vocab.df.get(s, 0) > TOPIC_SHARE * vocab.n for s in stems)
