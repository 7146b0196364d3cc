"""Where a paper's code is: its abstract's sentence that gives it, else a refusal with the
record's link, never what the paper proposes (`rag.answer.code_link`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.code_link import code_asked
from rag.answer.pipeline import ask
from rag.engine import Engine
from rag.types import Query
from tests.conftest import with_records
from tests.fakes import ScriptedLLM

PAPERS = [
    "Long contexts make key-value caches the memory bottleneck. We introduce CacheZip, a codec that "
    "compresses key-value caches. CacheZip keeps accuracy on long-context benchmarks. "
    "Our code is available at https://github.com/example/cachezip.",
    "Protein design needs accurate structure models. We introduce FoldNet, a diffusion model that "
    "generates protein backbones. FoldNet designs 120 novel folds.",
]
META = [
    {"paper_id": "cl#1", "title": "CacheZip: Compressing Key-Value Caches", "authors": ["Ada Lovelace"]},
    {
        "paper_id": "cl#2",
        "title": "FoldNet: Designing Protein Backbones",
        "authors": ["Grace Hopper"],
        "url": "https://openreview.net/forum?id=fold",
    },
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "cl", "cl", PAPERS, META)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Where can I find the code for CacheZip?", "CacheZip"),
        ("Is FoldNet open source?", "FoldNet"),
        ("Is the code for the FoldNet paper available?", "the FoldNet paper"),
        ("Where is the source code of CacheZip?", "CacheZip"),
        ("Did the FoldNet authors release their code?", "FoldNet"),
        ("Is the code available?", ""),
        ("Is it open source?", "it"),
        ("Is there code?", ""),
        # code as a topic, or more asked than where it is
        ("Which code generation benchmarks does CacheZip use?", None),
        ("Where can I find the code for CacheZip and what does it compress?", None),
        ("How does CacheZip compress code?", None),
    ],
)
def test_code_asked(question: str, asked: str | None) -> None:
    assert code_asked(question) == asked


def test_the_sentence_that_gives_the_code_answers(engine: Engine) -> None:
    a = engine.ask("Where can I find the code for CacheZip?")
    assert a.answer == "Our code is available at https://github.com/example/cachezip. [1]"
    assert {c.paper_id for c in a.citations} == {"cl#1"}


def test_no_code_in_the_abstract_is_refused_with_the_records_link(engine: Engine) -> None:
    a = engine.ask("Is FoldNet open source?")
    assert a.refused and not a.citations
    assert a.note == (
        "The abstract of “FoldNet: Designing Protein Backbones” does not say where its code is; "
        "its record links to https://openreview.net/forum?id=fold."
    )


def test_in_a_conversation_the_code_of_the_paper_discussed(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What is CacheZip?"},
        {"role": "assistant", "content": "We introduce CacheZip, a codec that compresses key-value caches. [1]"},
    ]
    a = engine.ask("Is the code available?", history=history)
    assert {c.paper_id for c in a.citations} == {"cl#1"} and "github.com" in a.answer


def test_an_llm_backend_gives_the_sentence_as_is(engine: Engine) -> None:
    llm = ScriptedLLM("The code is on GitLab [1].")
    a = ask(Query(question="Is CacheZip open source?"), backend="local", retriever=engine.retriever, llm=llm)
    assert llm.calls == 0 and "github.com/example/cachezip" in a.answer


@given(st.text(max_size=80))
def test_code_asked_never_raises(question: str) -> None:
    code_asked(question)
