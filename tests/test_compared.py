"""Questions that compare papers they name ("Compare X and Y") are answered from each of them
(`references.compared`, `pointed.compared_focus`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.references import compared, compares
from rag.engine import Engine
from tests.conftest import with_papers

NAMED = {"p1": "CacheZip", "p2": "FlashSort", "p3": "TinyNet"}


@pytest.mark.parametrize(
    ("question", "named", "expected"),
    [
        ("Compare CacheZip and FlashSort", ["p1", "p2"], ["p1", "p2"]),
        ("FlashSort vs. CacheZip", ["p1", "p2"], ["p2", "p1"]),
        ("FlashSort versus the CacheZip?", ["p1", "p2"], ["p2", "p1"]),
        ("How do CacheZip, FlashSort and TinyNet differ?", ["p1", "p2", "p3"], ["p1", "p2", "p3"]),
        ("What do CacheZip and FlashSort have in common?", ["p1", "p2"], ["p1", "p2"]),
        ("What is the difference between CacheZip and FlashSort?", ["p1", "p2"], ["p1", "p2"]),
        ("How does CacheZip differ from FlashSort?", ["p1", "p2"], ["p1", "p2"]),
        ("CacheZip or FlashSort: which one sorts keys?", ["p1", "p2"], ["p1", "p2"]),
        ("Which is larger, FlashSort or CacheZip?", ["p1", "p2"], ["p2", "p1"]),
        ("Which has more tasks: CacheZip or FlashSort?", ["p1", "p2"], ["p1", "p2"]),
        ("Which is the CacheZip and FlashSort baseline?", ["p1", "p2"], []),  # no "or": no choice
        # no word of comparison, but the names are all an overview question asks about: each
        ("What do CacheZip and FlashSort do?", ["p1", "p2"], ["p1", "p2"]),
        ("What are CacheZip and FlashSort?", ["p1", "p2"], ["p1", "p2"]),
        ("What is CacheZip and what is FlashSort?", ["p1", "p2"], ["p1", "p2"]),
        ("Tell me about CacheZip, FlashSort and TinyNet", ["p1", "p2", "p3"], ["p1", "p2", "p3"]),
        ("Summarize the CacheZip and FlashSort papers", ["p1", "p2"], ["p1", "p2"]),
        ("How do FlashSort and CacheZip work?", ["p1", "p2"], ["p2", "p1"]),
        # no word of comparison and more than the names asked about: the usual path
        ("Does CacheZip beat FlashSort?", ["p1", "p2"], []),
        ("What is the memory use of CacheZip and FlashSort on phones?", ["p1", "p2"], []),
        ("What is CacheZip and FlashSort's memory use?", ["p1", "p2"], []),
        ("Which paper evaluates CacheZip and FlashSort?", ["p1", "p2"], []),
        ("What is CacheZip with FlashSort?", ["p1", "p2"], []),
        # one name only, or names not side by side
        ("Which loss is CacheZip compared against?", ["p1"], []),
        ("How much does CacheZip improve over FlashSort in comparison?", ["p1", "p2"], []),
        # a third name beside the compared ones: a baseline, not a comparison of papers
        ("Compare CacheZip and FlashSort on TinyNet", ["p1", "p2", "p3"], []),
    ],
)
def test_compared(question: str, named: list[str], expected: list[str]) -> None:
    assert compared(question, {p: NAMED[p] for p in named}) == expected


def test_an_ambiguous_name_compares_nothing() -> None:
    # At conference scale two papers may coin the same acronym: which one is meant is unknown.
    assert compared("Compare CacheZip and FlashSort", {"p1": "CacheZip", "p2": "FlashSort", "p9": "CacheZip"}) == []


@given(st.text(max_size=80), st.dictionaries(st.text(min_size=1, max_size=5), st.text(max_size=8), max_size=4))
def test_compared_never_raises_and_returns_named_papers(question: str, named: dict[str, str]) -> None:
    out = compared(question, named)
    assert set(out) <= set(named) and (not out or len(out) >= 2)


# A codec and a sorting kernel: two papers with nothing in common but being compared.
PAPERS = [
    "Key-value caches dominate the memory of long-context inference. We introduce CacheZip, a codec "
    "that compresses key-value caches by 8 times. CacheZip keeps accuracy on long-context benchmarks.",
    "Sorting networks are slow on accelerators. We present FlashSort, a kernel that sorts keys on "
    "accelerators 3 times faster. FlashSort needs no extra memory.",
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_papers(fake_engine, tmp_path / "cmp", "cmp", PAPERS)


def test_a_comparison_is_answered_from_each_named_paper(engine: Engine) -> None:
    a = engine.ask("Compare CacheZip and FlashSort")
    assert not a.refused
    assert {c.paper_id for c in a.citations} == {"cmp#1", "cmp#2"}


@pytest.mark.parametrize("question", ["What are CacheZip and FlashSort?", "What is CacheZip and what is FlashSort?"])
def test_a_question_about_two_named_papers_is_answered_from_each(engine: Engine, question: str) -> None:
    a = engine.ask(question)
    assert not a.refused
    assert [c.paper_id for c in a.citations][:1] == ["cmp#1"]
    assert {c.paper_id for c in a.citations} == {"cmp#1", "cmp#2"}


def _about(label: str, paper_id: str) -> list[dict[str, object]]:
    """A conversation so far: one question on the paper, and an answer citing it."""
    return [
        {"role": "user", "content": f"What is {label}?"},
        {"role": "assistant", "content": f"{label} is a method.", "paper_ids": [paper_id]},
    ]


def test_a_comparison_inside_a_conversation_about_another_paper(engine: Engine) -> None:
    a = engine.ask("How do CacheZip and FlashSort differ?", history=_about("GraphMix", "small#1"))
    assert {c.paper_id for c in a.citations} == {"cmp#1", "cmp#2"}


def test_it_compared_with_a_named_paper_in_a_conversation(engine: Engine) -> None:
    a = engine.ask("How does it compare to FlashSort?", history=_about("CacheZip", "cmp#1"))
    assert [c.paper_id for c in a.citations][:1] == ["cmp#1"]
    assert {c.paper_id for c in a.citations} == {"cmp#1", "cmp#2"}


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("How do the two methods differ?", True),
        ("What is the difference between them?", True),
        ("Are they different?", True),
        # "differential(ly)" and "differentiable" name no comparison
        ("Going back to the differentially private mirror descent paper, which lemma?", False),
        ("Does it need differentiable objectives?", False),
    ],
)
def test_words_of_comparison(question: str, expected: bool) -> None:
    assert compares(question) is expected
