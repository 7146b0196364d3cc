"""A "what is <name>?" question whose first paper never writes the name is answered by the
retrieved paper that does, when few papers write it (`runner_up.named_runner_up`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.accept import LOOSE
from rag.answer.runner_up import asks_what_name_is, named_runner_up
from rag.engine import Engine
from rag.retrieval.retriever import Retrieval
from rag.types import Query
from tests.conftest import with_papers


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What is the One-Step Generalization Ratio?", True),
        ("what's a Lomb-Scargle layer", True),
        ("Define TimeFlow Loss", True),
        ("What is the accuracy of GENIE on DomainNet in the main experiments reported?", False),
        ("What accuracy does it reach on CIFAR-10?", False),
        ("How is the One-Step Generalization Ratio computed?", False),
    ],
)
def test_asks_what_name_is(question: str, asks: bool) -> None:
    assert asks_what_name_is(question) is asks


@given(st.text(max_size=80))
def test_asks_what_name_is_never_raises(question: str) -> None:
    asks_what_name_is(question)


PAPERS = [
    "We study the ratio of generalization gains across tasks and what limits it.",
    "We propose a new optimizer. It equalizes the Quantum Widget Ratio (QWR) across parameters, "
    "a measure of each parameter's contribution to loss reduction.",
]


def _ranked_first(engine: Engine, question: str, first: str) -> Retrieval:
    """The retrieval with `first` put first (the premise: the name's paper is a runner-up)."""
    r = engine.retriever.retrieve(question)
    r.hits = sorted(r.hits, key=lambda h: h.paper_id != first)
    return r


def test_the_paper_that_writes_the_name_answers(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_papers(fake_engine, tmp_path / "qw", "qw", PAPERS)
    question = "What is the Quantum Widget Ratio?"
    r = _ranked_first(engine, question, "qw#1")
    won = named_runner_up(Query(question=question), r, engine.retriever, LOOSE, [], None)
    assert [h.paper_id for h, _, _ in won] == ["qw#2"]
    assert r.hits[0].paper_id == "qw#2"  # the sources list it first too


def test_not_for_other_questions_or_common_names(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_papers(fake_engine, tmp_path / "qw", "qw", PAPERS)
    for question in ("How is the Quantum Widget Ratio computed across tasks?", "What is the ratio?"):
        r = _ranked_first(engine, question, "qw#1")
        assert named_runner_up(Query(question=question), r, engine.retriever, LOOSE, [], None) == []
