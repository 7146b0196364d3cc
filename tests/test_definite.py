"""A definite description of the discussed paper's thing refers to it (`rag/answer/definite.py`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.definite import describes, topicless
from rag.index.vocabulary import Vocabulary, paper_stems
from rag.types import Paper

OURS = (
    "We show a regret lower bound for kernelized bandits with Matern kernels. We introduce a multi-step "
    "variant that improves the error bound. The method is fast."
)
# Many papers write "lower bound", "method" and "error"; only ours writes "multi-step" and "variant".
OTHERS = [f"We prove a lower bound on the error of method {i} for regression." for i in range(60)]
PAPERS = {
    f"p{i}": Paper(paper_id=f"p{i}", source="x", position=i + 1, abstract=t) for i, t in enumerate([OURS, *OTHERS])
}
VOCAB = Vocabulary(PAPERS)
STEMS = paper_stems(PAPERS["p0"])
SAID = "We show a regret lower bound for kernelized bandits with Matern kernels."


@pytest.mark.parametrize(
    ("question", "last_answer", "refers"),
    [
        ("Which kernels does the lower bound cover?", SAID, True),  # the words the last answer used
        ("Which kernels does the lower bound cover?", "It is fast.", False),  # common words, not just said
        ("What does the multi-step variant improve?", "It is fast.", True),  # a rare word of the paper
        ("What does the method improve?", SAID, False),  # a generic head singles nothing out
        ("What is the sample complexity of the estimator?", SAID, False),  # not the paper's words
        ("What does it improve?", SAID, False),  # no description (pronouns are the referring rule's)
    ],
)
def test_describes(question: str, last_answer: str, refers: bool) -> None:
    assert describes(question, STEMS, last_answer, VOCAB) is refers


@given(st.text(max_size=80), st.text(max_size=80))
def test_describes_never_raises(question: str, last_answer: str) -> None:
    assert describes(question, STEMS, last_answer, VOCAB) in (True, False)


@pytest.mark.parametrize(
    ("question", "topicless_"),
    [
        ("Which kernels does it use?", False),  # "kernels" is in one paper of 61: a topic
        ("What lower bound on the error do they prove?", True),  # every word is in most papers
        ("What does the multi-step variant improve?", False),
        ("Why?", False),  # no content word: nothing to judge
    ],
)
def test_topicless(question: str, topicless_: bool) -> None:
    assert topicless(question, VOCAB) is topicless_
