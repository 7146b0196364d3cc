""" "Which papers cite X?" is answered by the other abstracts that write X's name, never by X's
own abstract, and refused, saying why, when none does (`rag.answer.others`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.others import others_asked
from rag.engine import Engine
from tests.conftest import with_records

PAPERS = [
    "Long contexts make key-value caches the memory bottleneck. We introduce CacheZip, a codec that "
    "compresses key-value caches. CacheZip keeps accuracy on long-context benchmarks.",
    "Protein design needs accurate structure models. We introduce FoldNet, a diffusion model that "
    "generates protein backbones. FoldNet designs 120 novel folds.",
    "Serving language models is memory bound. We present PageServe, a paged serving system. "
    "PageServe stores caches compressed with CacheZip and doubles throughput.",
]
META = [
    {"paper_id": "ot#1", "title": "CacheZip: Compressing Key-Value Caches", "authors": ["Ada Lovelace"]},
    {"paper_id": "ot#2", "title": "FoldNet: Designing Protein Backbones", "authors": ["Grace Hopper"]},
    {"paper_id": "ot#3", "title": "PageServe: Paged Serving", "authors": ["Alan Turing"]},
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "ot", "ot", PAPERS, META)


@pytest.mark.parametrize(
    ("question", "paper"),
    [
        ("Which papers cite CacheZip?", "ot#1"),
        ("What other papers build on the CacheZip paper?", "ot#1"),
        ("Does any other paper use FoldNet?", "ot#2"),
        ("Are there papers that compare against FoldNet?", "ot#2"),
        ("Which works extend CacheZip", "ot#1"),
        # a topic, not the paper: a list question as usual
        ("Which papers use CacheZip-style codecs?", None),
        ("Which papers use diffusion models?", None),
        ("What does CacheZip use?", None),
    ],
)
def test_others_asked(engine: Engine, question: str, paper: str | None) -> None:
    asked = others_asked(question, engine.retriever.snapshot)
    assert (asked.paper_id if asked else None) == paper


def test_the_other_papers_that_mention_it_answer_not_itself(engine: Engine) -> None:
    a = engine.ask("Which papers cite CacheZip?")
    assert not a.refused and {c.paper_id for c in a.citations} == {"ot#3"}
    assert "compressed with CacheZip" in a.answer and "mention CacheZip" in (a.note or "")
    assert a.latency_ms > 0


def test_in_a_conversation_it_is_the_paper_discussed(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What is CacheZip?"},
        {"role": "assistant", "content": "We introduce CacheZip, a codec that compresses key-value caches. [1]"},
    ]
    a = engine.ask("Which papers cite it?", history=history)
    assert {c.paper_id for c in a.citations} == {"ot#3"} and "mention CacheZip" in (a.note or "")


def test_none_mentions_it_refused_saying_why(engine: Engine) -> None:
    a = engine.ask("Which papers build on FoldNet?")
    assert a.refused and not a.citations and "No other indexed abstract mentions FoldNet" in (a.note or "")


def test_others_asked_never_raises(engine: Engine) -> None:
    snap = engine.retriever.snapshot

    @given(st.text(max_size=60).map(lambda s: f"Which papers cite {s}?") | st.text(max_size=60))
    def check(question: str) -> None:
        others_asked(question, snap)

    check()
