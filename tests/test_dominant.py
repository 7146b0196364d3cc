"""A paper whose whole abstract matches the question's words far better than any other leads
the ranking (`signals.dominant_paper`)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.retrieval.signals import DOMINANT_BM25, dominant_paper


@pytest.mark.parametrize(
    ("scores", "dominant"),
    [
        ({"a": 20.0, "b": 13.5, "c": 12.0}, "a"),  # 1.48x the second
        ({"a": 14.0, "b": 13.5}, None),  # a hair ahead: fusion decides
        ({"a": 20.0}, None),  # nothing to compare with
        ({}, None),
        ({"a": 0.0, "b": 0.0}, None),
        ({"b": 14.0, "a": 14.0 * DOMINANT_BM25}, "a"),  # exactly the ratio, any order
    ],
)
def test_dominant_paper(scores: dict[str, float], dominant: str | None) -> None:
    assert dominant_paper(scores) == dominant


@given(st.dictionaries(st.text(min_size=1, max_size=3), st.floats(0, 100), max_size=6))
def test_the_dominant_paper_is_first_by_the_ratio(scores: dict[str, float]) -> None:
    got = dominant_paper(scores)
    if got is not None:
        rest = [v for k, v in scores.items() if k != got]
        assert all(scores[got] >= DOMINANT_BM25 * v for v in rest)
