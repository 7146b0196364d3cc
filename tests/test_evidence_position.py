"""The one-paper prior by position (evidence.OPENING_PENALTY, POSITION_WEIGHT)."""

from pathlib import Path

import pytest

from rag.answer.clauses import ask_clause
from rag.answer.selection import select_evidence
from rag.engine import Engine
from tests.conftest import write_corpus

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
    write_corpus(tmp_path / "pos", "pos", [BACKGROUND_FIRST, COUNT_FIRST])
    fake_engine.ingest([tmp_path / "pos"])
    return fake_engine


def _lead(engine: Engine, question: str, paper_id: str, by_position: bool) -> str:
    r = engine.retriever
    ev = select_evidence(
        question,
        r.snapshot.papers[paper_id],
        r,
        r.embed_query(question),
        keep_margin=None,
        ask_vec=r.embed_query(ask_clause(question)),
        by_position=by_position,
    )
    return ev[0][1]


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
