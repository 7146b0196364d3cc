"""The answerability check's thresholds: a "which papers" question needs less of its wording covered."""

import pytest

from rag.answer.evidence import MIN_COSINE, MIN_COVERAGE, MULTI_MIN_COSINE, MULTI_MIN_COVERAGE, Features


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
