"""The answerability check's thresholds: a "which papers" question needs less of its wording covered."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rag.answer.evidence import (
    MIN_COSINE,
    MIN_COVERAGE,
    MULTI_MIN_COSINE,
    MULTI_MIN_COVERAGE,
    Features,
    alternatives,
    is_multi,
)
from rag.answer.extractive import _listed
from rag.types import Hit


@pytest.mark.parametrize(
    ("cosine", "coverage", "multi", "answerable"),
    [
        (0.45, MIN_COVERAGE, False, True),
        (0.45, MULTI_MIN_COVERAGE, False, False),  # one paper: the question's terms must be there
        (0.45, MULTI_MIN_COVERAGE, True, True),  # a topic in a few words: part of them will do
        (0.45, MULTI_MIN_COVERAGE - 0.01, True, False),
        (MIN_COSINE - 0.01, 1.0, True, False),  # off-topic stays off-topic
        (0.60, 0.0, False, True),
    ],
)
def test_answerable(cosine: float, coverage: float, multi: bool, answerable: bool) -> None:
    f = Features(cosine=cosine, coverage=coverage, missing_detail=None, score=1.0, multi=multi)
    assert f.answerable() is answerable


def test_missing_detail_is_never_answerable() -> None:
    f = Features(cosine=0.9, coverage=1.0, missing_detail="a number", score=2.0, multi=True)
    assert not f.answerable()


@pytest.mark.parametrize(
    ("cosine", "coverage", "multi", "on_theme"),
    [
        (MIN_COSINE, 0.0, False, True),
        (MULTI_MIN_COSINE, MULTI_MIN_COVERAGE, True, True),  # a further paper of a list, looser
        (MULTI_MIN_COSINE, MULTI_MIN_COVERAGE, False, False),  # never for a single answer
        (MULTI_MIN_COSINE, MULTI_MIN_COVERAGE - 0.01, True, False),  # looser needs the terms
        (MULTI_MIN_COSINE - 0.01, 1.0, True, False),
    ],
)
def test_on_theme(cosine: float, coverage: float, multi: bool, on_theme: bool) -> None:
    f = Features(cosine=cosine, coverage=coverage, missing_detail=None, score=1.0, multi=multi)
    assert f.on_theme() is on_theme
    # the list is only answered when one paper answers on its own: a loose match never does
    assert not (f.answerable() and cosine < MIN_COSINE)


@pytest.mark.parametrize(
    ("question", "subs"),
    [
        ("Which papers study quantization?", []),
        ("What does FoldNet do, or what does it beat?", []),  # not a "which papers" question
        (
            "Which papers draw on flow matching or on probability paths?",
            ["Which papers draw on flow matching?", "Which papers on probability paths?"],
        ),
        (
            "Which papers use graphs, or trees, or sets?",
            ["Which papers use graphs?", "Which papers trees?", "Which papers sets?"],
        ),
        ("Which papers use A or B or C or D?", ["Which papers use A?", "Which papers B?", "Which papers C?"]),
        ("Which papers use GNNs and/or kernels?", ["Which papers use GNNs?", "Which papers kernels?"]),
    ],
)
def test_alternatives(question: str, subs: list[str]) -> None:
    assert alternatives(question) == subs


@settings(derandomize=True, deadline=None)
@given(st.text(max_size=120))
def test_alternatives_are_which_papers_questions(tail: str) -> None:
    for sub in alternatives(f"Which papers {tail}"):
        assert sub.startswith("Which papers") and sub.endswith("?") and is_multi(sub)


def _run(*features: tuple[str, float, float, float]) -> list[tuple[Hit, list[tuple[str, str, float]], Features]]:
    return [
        (
            Hit(paper_id=pid, label=pid, score=score),
            [],
            Features(cosine=cos, coverage=cov, missing_detail=None, score=score, multi=True),
        )
        for pid, cos, cov, score in features
    ]


@pytest.mark.parametrize(
    ("whole", "answers_alternative", "listed"),
    [
        # Nothing answers the whole question and no alternative is answered: no list.
        (_run(("p1", 0.39, 0.56, 0.9)), False, []),
        # An alternative is answered, and a paper covers the whole question's terms
        # with a sentence just below the single-paper bar: listed.
        (_run(("p1", 0.39, 0.56, 0.9)), True, ["p1", "alt"]),
        # An alternative is answered, but the whole question's terms are barely covered
        # (the alternative was a fragment of a split phrase): no list.
        (_run(("p1", 0.46, 0.22, 0.9)), True, []),
        # A paper answers the whole question: listed as before.
        (_run(("p1", 0.60, 0.10, 1.0)), False, ["p1", "alt"]),
    ],
)
def test_a_list_needs_an_answer_to_the_question_or_to_an_alternative_that_covers_it(
    whole: list[tuple[Hit, list[tuple[str, str, float]], Features]], answers_alternative: bool, listed: list[str]
) -> None:
    alt = _run(("alt", 0.5, 0.5, 0.95))
    got = _listed(whole, alt, answers_alternative)
    assert [a[0].paper_id for a in got] == listed
