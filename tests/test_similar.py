"""Papers like a named one ("Papers similar to X?", `rag/answer/similar.py`): the papers whose
abstracts are closest to its abstract, each cited by what it is, never the paper itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.pipeline import ask
from rag.answer.similar import similar_asked
from rag.engine import Engine
from rag.types import Query
from tests.conftest import with_papers
from tests.fakes import ScriptedLLM


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Papers similar to AdaSplash?", "AdaSplash"),
        ("What are the papers most similar to ZebraLogic?", "ZebraLogic"),
        ("related work for the Sundial paper", "the Sundial paper"),
        ("Are there other papers like TimeFuse?", "TimeFuse"),
        ("What else is like it?", "it"),
        ("Are there similar papers?", "it"),  # in a conversation: like the one discussed
        ("Any related work?", "it"),
        ("Which papers are related to the second one?", "the second one"),
        # not asking for papers like a paper
        ("How is AdaSplash similar to FlashAttention?", None),
        ("Which papers use similar methods?", None),
        ("What does AdaSplash do?", None),
    ],
)
def test_similar_asked(question: str, asked: str | None) -> None:
    assert similar_asked(question) == asked


@given(st.text(max_size=80))
def test_similar_asked_never_raises(question: str) -> None:
    asked = similar_asked(question)
    assert asked is None or (asked and asked in question)


PAPERS = [
    "Key-value caches dominate the memory of long-context inference. We introduce CacheZip, a codec "
    "that compresses key-value caches of long-context inference by 8 times.",
    "Long-context inference is bound by key-value cache memory. We present KVSlim, which quantizes "
    "key-value caches to 2 bits for long-context inference.",
    "Protein structure prediction is slow for long chains. We introduce FoldFormer, a transformer "
    "that predicts protein backbones.",
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_papers(fake_engine, tmp_path / "sim", "sim", PAPERS)


def test_papers_like_a_named_one_are_listed_closest_first(engine: Engine) -> None:
    a = engine.ask("Papers similar to CacheZip?")
    assert not a.refused
    cited = [c.paper_id for c in a.citations]
    assert cited[0] == "sim#2" and "sim#1" not in cited
    assert a.note is not None and "closest to that of" in a.note
    assert a.answer.startswith("- KVSlim (")


def test_papers_like_the_one_discussed(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What is KVSlim?"},
        {"role": "assistant", "content": "KVSlim quantizes key-value caches.", "paper_ids": ["sim#2"]},
    ]
    a = engine.ask("What else is like it?", history=history)
    assert [c.paper_id for c in a.citations][:1] == ["sim#1"]
    b = engine.ask("Are there similar papers?", history=history)
    assert [c.paper_id for c in b.citations][:1] == ["sim#1"]
    assert "closest to that of" not in (engine.ask("Are there similar papers?").note or "")  # like nothing named


def test_papers_related_to_a_topic_are_a_list_not_this(engine: Engine) -> None:
    a = engine.ask("Find me papers related to key-value caches")
    assert a.note is None or "closest to that of" not in a.note


def test_an_llm_backend_returns_the_list_as_is_but_answers_a_topic(engine: Engine) -> None:
    llm = ScriptedLLM("KVSlim quantizes key-value caches to 2 bits [1].")
    for question in ("Papers similar to CacheZip?", "Papers similar to CacheZp?"):  # a slip too
        a = ask(Query(question=question), backend="local", retriever=engine.retriever, llm=llm)
        assert llm.calls == 0 and a.answer.startswith("- KVSlim (")
    ask(
        Query(question="Find me papers related to key-value caches"),
        backend="local",
        retriever=engine.retriever,
        llm=llm,
    )
    assert llm.calls == 1
