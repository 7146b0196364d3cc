""" "Show me the abstract of X": every sentence of the abstract, in order, each cited
(`rag.answer.whole`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.whole import abstract_asked
from rag.engine import Engine
from tests.conftest import with_records

PAPERS = [
    "Long contexts make key-value caches the memory bottleneck. We introduce CacheZip, a codec that "
    "compresses key-value caches. CacheZip keeps accuracy on long-context benchmarks.",
    "Protein design needs accurate structure models. We introduce FoldNet, a diffusion model that "
    "generates protein backbones. FoldNet designs 120 novel folds.",
]
META = [
    {"paper_id": "wh#1", "title": "CacheZip: Compressing Key-Value Caches", "authors": ["Ada Lovelace"]},
    {"paper_id": "wh#2", "title": "FoldNet: Designing Protein Backbones", "authors": ["Grace Hopper"]},
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "wh", "wh", PAPERS, META)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Show me the abstract of CacheZip", "CacheZip"),
        ("What is the full abstract of the FoldNet paper?", "the FoldNet paper"),
        ("Give me FoldNet's abstract.", "FoldNet"),
        ("Show me the abstract", ""),
        ("Can you show me its full abstract?", ""),
        # a summary or a question about the abstract is not the abstract itself
        ("Summarize the abstract of CacheZip", None),
        ("What does the abstract of CacheZip say about memory?", None),
    ],
)
def test_abstract_asked(question: str, asked: str | None) -> None:
    assert abstract_asked(question) == asked


def test_the_whole_abstract_in_order_each_sentence_cited(engine: Engine) -> None:
    a = engine.ask("Show me the full abstract of CacheZip")
    sentences = [
        "Long contexts make key-value caches the memory bottleneck. [1]",
        "We introduce CacheZip, a codec that compresses key-value caches. [1]",
        "CacheZip keeps accuracy on long-context benchmarks. [1]",
    ]
    assert a.answer == " ".join(sentences)
    assert {c.paper_id for c in a.citations} == {"wh#1"} and len(a.citations) == 3


def test_in_a_conversation_the_abstract_of_the_paper_discussed(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What is FoldNet?"},
        {
            "role": "assistant",
            "content": "We introduce FoldNet, a diffusion model that generates protein backbones. [1]",
        },
    ]
    a = engine.ask("Show me the abstract", history=history)
    assert a.answer.startswith("Protein design needs accurate structure models. [1]")
    assert {c.paper_id for c in a.citations} == {"wh#2"}


@given(st.text(max_size=80))
def test_abstract_asked_never_raises(question: str) -> None:
    abstract_asked(question)
