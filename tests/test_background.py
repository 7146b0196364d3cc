"""A question about the work a paper builds on leads with the paper's background sentences
(`rag.answer.background`); a question comparing the paper with earlier work does not."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.background import asks_background, is_background
from rag.answer.clauses import ask_clause
from rag.answer.selection import Ranking, rank_evidence
from rag.engine import Engine
from tests.conftest import with_papers


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("What do nearly all prior deep approaches for clustering assume?", True),
        ("What formalism has recently been proposed for settings with hidden rewards?", True),
        ("How effective have post-hoc deletion methods been so far?", True),
        ("Which earlier work is the auditing method said to resemble?", True),
        ("How were views clustered before this paper?", True),
        ("What shortcoming of existing distillation methods limits them?", True),
        ("In how many setups did the router beat existing methods?", False),  # the paper's own result
        ("How does it stack up against earlier approaches?", False),
        ("How much faster is it than previous solvers?", False),
        ("What does StreamView align across views?", False),
    ],
)
def test_a_question_about_earlier_work_is_told_from_a_comparison_with_it(question: str, asks: bool) -> None:
    assert asks_background(question) is asks


@pytest.mark.parametrize(
    ("sentence", "background"),
    [
        ("Existing multi-view clustering methods assume that all views are collected in advance.", True),
        ("Monitored MDPs have recently been proposed to model such settings.", True),
        ("A popular mitigation is to prune memorizing neurons after training.", True),
        ("We propose StreamView, which clusters views as they arrive.", False),
        ("Unlike existing methods, our approach needs no labels.", False),  # the paper's own voice
        ("StreamView aligns prototypes across views.", False),
    ],
)
def test_a_background_sentence_is_on_earlier_work_in_no_voice_of_the_paper(sentence: str, background: bool) -> None:
    assert is_background(sentence) is background


@given(st.text(max_size=300))
def test_the_checks_never_raise(text: str) -> None:
    assert isinstance(asks_background(text), bool)
    assert isinstance(is_background(text), bool)


STREAM = (
    "Existing multi-view clustering methods assume that all views are collected before clustering starts. "
    "We propose StreamView, a method that clusters multi-view data as new views arrive over time. "
    "StreamView aligns the prototypes of each new view with those of earlier views to avoid drift. "
    "Experiments on six multi-view clustering benchmarks show that StreamView clusters streams accurately."
)


QUESTION = "What do existing methods assume about when views arrive?"


def _ranking(engine: Engine, question: str) -> Ranking:
    r = engine.retriever
    ranking = rank_evidence(
        question, r.snapshot.papers["sv#1"], r, r.embed_query(question), ask_vec=r.embed_query(ask_clause(question))
    )
    assert ranking is not None
    return ranking


def test_the_background_sentence_leads_only_for_a_question_about_earlier_work(
    fake_engine: Engine, tmp_path: Path
) -> None:
    engine = with_papers(fake_engine, tmp_path / "sv", "sv", [STREAM])
    earlier = _ranking(engine, QUESTION)
    assert earlier.pick(keep_margin=None, by_position=True)[0][1].startswith("Existing")
    own = _ranking(engine, "What does StreamView assume about multi-view clustering views?")
    first, second = sorted(earlier.order, key=earlier.order.__getitem__)[:2]
    assert earlier.prior[first] > own.prior[first]
    assert earlier.prior[second] == pytest.approx(own.prior[second])  # the paper's own sentence: no bonus
