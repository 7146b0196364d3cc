"""The one-paper prior by position (evidence.OPENING_PENALTY, POSITION_WEIGHT)."""

from pathlib import Path

import pytest

from rag.answer.accept import _evidence
from rag.answer.clauses import ask_clause
from rag.answer.selection import Ranking, rank_evidence
from rag.engine import Engine
from tests.conftest import with_papers

BACKGROUND_FIRST = (
    "Curiosity bonuses help agents with sparse rewards. We train agents on many games. "
    "Results hold across seeds. Curiosity bonuses help agents with sparse rewards in hard games."
)
COUNT_FIRST = (
    "Curiosity bonuses solve 12 of 15 games. We train agents with sparse rewards. "
    "Results hold across seeds. Curiosity bonuses solve hard games in practice."
)


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_papers(fake_engine, tmp_path / "pos", "pos", [BACKGROUND_FIRST, COUNT_FIRST])


def _lead(engine: Engine, question: str, paper_id: str, by_position: bool) -> str:
    r = engine.retriever
    ranking = rank_evidence(
        question, r.snapshot.papers[paper_id], r, r.embed_query(question), ask_vec=r.embed_query(ask_clause(question))
    )
    assert ranking is not None
    return ranking.pick(keep_margin=None, by_position=by_position)[0][1]


def test_the_opening_sentence_yields_to_a_close_later_one(engine: Engine) -> None:
    question = "Do curiosity bonuses help agents with sparse rewards?"
    assert _lead(engine, question, "pos#1", by_position=False).startswith(
        "Curiosity bonuses help agents with sparse rewards."
    )
    assert _lead(engine, question, "pos#1", by_position=True).endswith("in hard games.")


def test_a_sentence_with_what_is_asked_leads_wherever_it_is(engine: Engine) -> None:
    question = "How many games do curiosity bonuses solve?"
    for by_position in (False, True):
        assert _lead(engine, question, "pos#2", by_position).startswith("Curiosity bonuses solve 12 of 15 games.")


def _ranking() -> Ranking:
    # Four sentences by content A > B > C > D; D, the last, is reached only by the prior.
    scored = [("a", "A.", 2.0), ("b", "B.", 1.9), ("c", "C.", 1.8), ("d", "D has 12.", 1.7)]
    order = {"a": 0, "b": 1, "c": 2, "d": 3}
    prior = {"a": -0.4, "b": 0.1, "c": 0.2, "d": 0.5}
    return Ranking(scored, [], order, prior)


def test_the_prior_orders_the_quotes_but_the_check_reads_the_content_choice() -> None:
    ranking = _ranking()
    assert [x[0] for x in ranking.pick(keep_margin=None)] == ["a", "b", "c"]
    assert [x[0] for x in ranking.pick(keep_margin=None, by_position=True)] == ["d", "b", "c"]
    quoted, checked = _evidence(ranking, one=True, multi=False)
    assert "d" in [x[0] for x in quoted] and "d" not in [x[0] for x in checked]
    # A list, or several papers, never uses the prior.
    for one, multi in ((True, True), (False, False)):
        quoted, checked = _evidence(ranking, one=one, multi=multi)
        assert quoted == checked and "d" not in [x[0] for x in quoted]


def test_a_promoted_sentence_leads_with_or_without_the_prior() -> None:
    r = _ranking()
    promoted = Ranking(r.scored, ["a"], r.order, r.prior)
    assert promoted.pick(keep_margin=None, by_position=True)[0][0] == "a"


def test_each_paper_of_several_is_quoted_by_two_sentences_however_far_apart() -> None:
    scored = [("a", "A.", 2.0), ("b", "B.", 1.0), ("c", "C.", 0.9)]
    ranking = Ranking(scored, [], {"a": 0, "b": 1, "c": 2}, {"a": -0.4, "b": 0.15, "c": 0.3})
    quoted, checked = _evidence(ranking, one=False, multi=True)
    assert [x[0] for x in quoted] == ["a", "b"]
    assert [x[0] for x in checked] == ["a"]  # the check reads what is close to the best, as tuned
