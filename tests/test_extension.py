"""Yes/no questions whether a result reaches a further setting (`rag/answer/extension.py`)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.entities import recurring_acronyms
from rag.answer.extension import asked_setting, unwritten_setting
from rag.answer.guarantees import theory_forms
from rag.text.normalize import content_stems


def _stems(text: str) -> set[str]:
    return set(content_stems(text))


@pytest.mark.parametrize(
    ("question", "setting"),
    [
        (
            "Does the analysis extend to transformer blocks with self-attention?",
            "transformer blocks with self-attention",
        ),
        ("Can the method handle continuous observation spaces?", "continuous observation spaces"),
        ("Do the bounds carry over to off-policy TD, and how tight are they?", "off-policy TD"),
        ("Has the metric been applied to language-model search spaces?", "language-model search spaces"),
        ("Does it also hold for heavy-tailed noise?", "heavy-tailed noise"),
        ("Is it applicable to graphs, say molecules?", "graphs"),
        ("Does it scale to graphs with millions of nodes?", "graphs with millions of nodes"),
        ("Is it evaluated on offline class-incremental benchmarks?", "offline class-incremental benchmarks"),
        ("Does the benchmark include real legal contracts?", "real legal contracts"),
        ("Is the utility improvement guaranteed for logistic regression?", "logistic regression"),
        ("What does the method handle?", None),  # no yes/no question
        ("Does it scale?", None),
        ("How does it extend to video?", None),
    ],
)
def test_asked_setting(question: str, setting: str | None) -> None:
    assert asked_setting(question) == setting


ABSTRACT = (
    "We bound the Rademacher complexity of convolutional networks with batch normalization layers "
    "and study on-policy temporal difference learning with self attention on images."
)


@pytest.mark.parametrize(
    ("question", "unwritten"),
    [
        ("Does it extend to multiclass decisions with a cost matrix?", "multiclass decisions with a cost matrix"),
        ("Do the bounds carry over to off-policy learning?", "off-policy learning"),  # "policy" is no "off-policy"
        ("Does it handle a batch norm right after the conv?", None),  # clipped words are written
        ("Does the result still hold with self-attention?", None),  # a compound by its parts
        ("Does it also work for convolutional networks?", None),
        ("Does it work for deep and wide ones?", None),  # common words naming its own things: nothing to hold
        ("Does the benchmark include real legal contracts?", "real legal contracts"),  # everyday words, most lacking
        ("Does it only work for still images?", None),  # half of them written: a qualifier may be lacking
        ("Is it evaluated on temporal difference learning?", None),
        ("Does it include batch normalization layers?", None),
        ("Is it evaluated on offline convolutional networks?", "offline convolutional networks"),
        # Where a setting is tried ("… benchmarks") is no further setting, unless it is all there is.
        ("Does it work on temporal difference learning benchmarks?", None),
        ("Does it work for off-policy learning benchmarks?", "off-policy learning benchmarks"),
        ("Can it handle benchmarks?", "benchmarks"),
    ],
)
def test_unwritten_setting(question: str, unwritten: str | None) -> None:
    assert unwritten_setting(question, _stems(ABSTRACT)) == unwritten


@given(st.text(max_size=120))
def test_a_paper_writing_the_question_writes_its_setting(question: str) -> None:
    assert unwritten_setting(question, _stems(question)) is None


@pytest.mark.parametrize(
    ("text", "acronyms"),
    [
        ("Large Language Models (LLMs) reason. An LLM can fail.", {"llm", "llms"}),  # singular and plural as one
        ("We use GPT-4 twice: GPT-4 again.", {"gpt-4", "gpt-4s"}),
        ("One CNN here.", set()),
    ],
)
def test_recurring_acronyms(text: str, acronyms: set[str]) -> None:
    assert recurring_acronyms(text) == acronyms


@pytest.mark.parametrize(
    ("question", "text", "forms"),
    [
        ("Do they back their method up with any theory?", "We establish sample complexity guarantees.", {"theori"}),
        ("Is it provably convergent?", "We prove convergence.", {"provabl"}),
        ("Do they back their method up with any theory?", "We run experiments on ten datasets.", set()),
    ],
)
def test_theory_is_written_by_a_stated_guarantee(question: str, text: str, forms: set[str]) -> None:
    assert theory_forms(question, text) == forms
