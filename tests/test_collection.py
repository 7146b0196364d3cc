"""Questions about the index itself ("How many papers are indexed?"): answered from the index's
records, citing no paper, never from abstracts that happen to use the words (`rag.answer.collection`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.collection import FROM_INDEX, asks_about_index, index_answer
from rag.answer.pipeline import ask
from rag.engine import Engine
from rag.types import Paper, Query
from tests.conftest import with_records
from tests.fakes import ScriptedLLM

PAPERS = [
    "Long contexts make key-value caches the memory bottleneck. We introduce CacheZip, a codec that "
    "compresses key-value caches. CacheZip keeps accuracy on long-context benchmarks.",
    "Protein design needs accurate structure models. We introduce FoldNet, a diffusion model that "
    "generates protein backbones. FoldNet designs 120 novel folds.",
    "Single-index models are indexed by one direction. We study how many papers of data they need.",
]
META = [
    {"paper_id": "ix#1", "title": "CacheZip", "authors": ["Ada Lovelace"], "venue": "ICML 2025"},
    {"paper_id": "ix#2", "title": "FoldNet", "authors": ["Ada Lovelace"], "venue": "ICML", "year": 2024},
    {"paper_id": "ix#3", "title": "Index Models", "authors": ["Alan Turing"]},
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "ix", "ix", PAPERS, META)


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("How many papers are indexed?", True),
        ("how many abstracts do you have", True),
        ("How many papers are there in total?", True),
        ("How many documents are in the index?", True),
        ("How many papers have you indexed?", True),
        ("What papers do you have?", True),
        ("Which papers are indexed?", True),
        ("What's in the index?", True),
        ("Which venues are covered?", True),
        ("What conferences do you have?", True),
        ("What venues are the papers from?", True),
        ("List all papers", True),
        ("Show me all the papers.", True),
        ("List the papers on diffusion", False),
        # a question about papers on a topic, or about what a paper indexes
        ("How many papers are there on diffusion models?", False),
        ("How many papers are indexed by one direction?", False),
        ("Which papers are indexed by a single direction?", False),
        ("What papers study protein design?", False),
        ("How many folds does FoldNet design?", False),
        ("What is an index model?", False),
    ],
)
def test_asks_about_index(question: str, asks: bool) -> None:
    assert asks_about_index(question) is asks


def _paper(pid: str, venue: str | None = None, year: int | None = None) -> Paper:
    return Paper(paper_id=pid, source="t", position=1, abstract="x", venue=venue, year=year)


def test_index_answer_counts_by_venue() -> None:
    papers = {p.paper_id: p for p in [_paper("a", "ICML 2025"), _paper("b", "ICML", 2024), _paper("c"), _paper("d")]}
    a = index_answer("How many papers are indexed?", papers)
    assert a.answer == "4 papers are indexed: ICML 2024 (1); ICML 2025 (1); no venue in their records (2)."
    assert not a.refused and a.citations == [] and a.note == FROM_INDEX
    assert index_answer("How many papers are indexed?", papers, ["a"]).answer == "1 paper is indexed: ICML 2025 (1)."
    assert "lists them" in index_answer("What papers do you have?", papers).answer


def test_an_index_question_is_answered_from_the_index_not_the_abstracts(engine: Engine) -> None:
    a = engine.ask("How many papers are indexed?")
    assert a.answer.startswith("3 papers are indexed:") and not a.citations
    # narrowed by a venue first: those papers counted
    b = engine.ask("How many papers are from ICML 2025?")
    assert b.answer == "1 paper is indexed: ICML 2025 (1)." and "from ICML 2025" in (b.note or "")


def test_an_llm_backend_answers_an_index_question_without_the_llm(engine: Engine) -> None:
    llm = ScriptedLLM("There are 400 papers [1].")
    a = ask(Query(question="How many papers do you have?"), backend="local", retriever=engine.retriever, llm=llm)
    assert llm.calls == 0 and a.answer.startswith("3 papers are indexed")


@given(st.text(max_size=80))
def test_asks_about_index_never_raises(question: str) -> None:
    asks_about_index(question)
