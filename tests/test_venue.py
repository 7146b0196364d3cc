"""A question scoped to a venue ("Which ICML 2025 papers …") is answered among the papers whose
records give that venue (`rag.answer.venue`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.venue import venue_scope, year_scope
from rag.engine import Engine
from rag.types import Paper
from tests.conftest import with_records


def _paper(pid: str, venue: str | None, year: int | None = None) -> Paper:
    return Paper(paper_id=pid, source="t", position=1, abstract="An abstract.", venue=venue, year=year)


PAPERS = {
    "a": _paper("a", "ICML 2025", 2025),
    "b": _paper("b", "ICML 2024", 2024),
    "n": _paper("n", "Nature", 2023),
    "x": _paper("x", None),
}


@pytest.mark.parametrize(
    ("question", "scope"),
    [
        ("Which ICML 2025 papers study caches?", ("Which papers study caches?", ["a"], "ICML 2025")),
        ("Which icml papers study caches?", ("Which papers study caches?", ["a", "b"], "ICML")),
        (
            "What does the paper at ICML '24 on caches find?",
            ("What does the paper on caches find?", ["b"], "ICML 2024"),
        ),
        ("Which ICML 2019 papers study caches?", ("Which papers study caches?", [], "ICML 2019")),
        ("Which papers in Nature study caches?", ("Which papers study caches?", ["n"], "Nature")),
        ("What is the nature of the caches?", None),  # not an acronym: as written only
        ("Nature papers on caches?", None),  # nor opening the question
        ("Which papers study caches?", None),
        ("Which papers use ICMLNet?", None),
    ],
)
def test_venue_scope(question: str, scope: tuple[str, list[str], str] | None) -> None:
    assert venue_scope(question, PAPERS) == scope


@given(st.text(max_size=100))
def test_venue_scope_never_raises(question: str) -> None:
    found = venue_scope(question, PAPERS)
    assert found is None or set(found[1]) <= set(PAPERS)


ABSTRACTS = [
    "Long contexts make key-value caches the memory bottleneck. We introduce CacheZip, a codec that "
    "compresses key-value caches. CacheZip keeps accuracy on long-context benchmarks.",
    "Key-value caches grow with context. We present CacheCut, which evicts key-value cache entries. "
    "CacheCut halves cache memory on long-context benchmarks.",
]
META = [
    {"paper_id": "ven#1", "title": "CacheZip: Compressing Key-Value Caches", "venue": "ICML 2025", "year": 2025},
    {"paper_id": "ven#2", "title": "CacheCut: Evicting Key-Value Caches", "year": 2024},
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "ven", "ven", ABSTRACTS, META)


def test_a_venue_question_is_answered_among_that_venues_papers(engine: Engine) -> None:
    a = engine.ask("Which ICML 2025 papers compress key-value caches?", explain=True)
    assert not a.refused, a.explain
    assert {c.paper_id for c in a.citations} == {"ven#1"}
    assert a.question == "Which ICML 2025 papers compress key-value caches?"
    assert a.note == "Answered among the 1 indexed paper from ICML 2025. 1 indexed paper has no venue in their records."


def test_a_venue_no_paper_has_is_refused_and_said(engine: Engine) -> None:
    a = engine.ask("Which ICML 2019 papers compress key-value caches?")
    assert a.refused and a.note == "No indexed paper is from ICML 2019."


@pytest.mark.parametrize(
    ("question", "scope"),
    [
        ("Which 2024 papers study caches?", ("Which papers study caches?", ["b"], "2024")),
        ("Which papers from 2025 study caches?", ("Which papers study caches?", ["a"], "2025")),
        ("Which papers published in 2023 study caches?", ("Which papers study caches?", ["n"], "2023")),
        ("Any papers in 2019 on caches?", ("Any papers on caches?", [], "2019")),
        ("What did the 2024 election study find?", None),  # a year the question is about
        ("How did accuracy change in 2024?", None),
        ("Which papers study caches?", None),
    ],
)
def test_year_scope(question: str, scope: tuple[str, list[str], str] | None) -> None:
    assert year_scope(question, PAPERS) == scope


@given(st.text(max_size=100))
def test_year_scope_never_raises(question: str) -> None:
    found = year_scope(question, PAPERS)
    assert found is None or set(found[1]) <= set(PAPERS)


def test_a_year_question_is_answered_among_that_years_papers(engine: Engine) -> None:
    a = engine.ask("Which 2024 papers evict key-value caches?")
    assert {c.paper_id for c in a.citations} == {"ven#2"}
    assert a.note == "Answered among the 1 indexed paper from 2024."
    assert engine.ask("Which papers from 2019 evict key-value caches?").note == "No indexed paper is from 2019."
