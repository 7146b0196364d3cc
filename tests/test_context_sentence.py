"""A short sentence that refers back is ordered with the terms of the sentence before it
(selection.CONTEXT_WORDS), for quoting only."""

from pathlib import Path

import pytest

from rag.answer.accept import _evidence
from rag.answer.clauses import ask_clause
from rag.answer.selection import _position_prior, _refers_back, rank_evidence
from rag.engine import Engine
from tests.conftest import write_corpus

ABSTRACT = (
    "Language models memorize repeated training sequences. "
    "A popular mitigation deletes memorized neurons after training. "
    "However, such deletions have shown limited success so far. "
    "We isolate memorization during training instead. "
    "Isolation keeps general language ability on large corpora."
)
QUESTION = "How successful has deleting memorized neurons after training been?"


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    write_corpus(tmp_path / "ctx", "ctx", [ABSTRACT])
    fake_engine.ingest([tmp_path / "ctx"])
    return fake_engine


@pytest.mark.parametrize(
    ("sentence", "refers"),
    [
        ("This reveals a limitation specific to the looped architecture.", True),
        ("However, such approaches have shown limited success so far.", True),
        ("That is, the analysis prompts scaling parameters for each loop.", True),
        ("They fail on long inputs.", True),
        ("In such domains, labelled data may be scarce or expensive to obtain.", True),
        ("Each such pair is provided as a single in-context example at inference time.", True),
        ("In this work, we study attention under label noise.", False),  # the paper, not the sentence before
        ("In practice, views arrive over time.", False),
        ("For all tasks we report accuracy.", False),
        ("We isolate memorization during training.", False),
        ("Thisness is not a word we use.", False),
        # long enough to say its own subject
        ("This " + "very " * 20 + "long sentence names everything it needs.", False),
    ],
)
def test_a_short_sentence_opening_with_a_reference_back(sentence: str, refers: bool) -> None:
    assert _refers_back(sentence) is refers


def test_the_borrowed_terms_order_the_quotes_not_the_check(engine: Engine) -> None:
    r = engine.retriever
    nodes = r.snapshot.by_paper["ctx#1"]
    ranking = rank_evidence(
        QUESTION, r.snapshot.papers["ctx#1"], r, r.embed_query(QUESTION), ask_vec=r.embed_query(ask_clause(QUESTION))
    )
    assert ranking is not None
    gained = {r.snapshot.quote(cid): ranking.prior[cid] - p for cid, p in _position_prior(nodes).items()}
    # Only the sentence referring back borrows, and the sentence before it has question terms it lacks.
    assert [q for q, g in gained.items() if g] == ["However, such deletions have shown limited success so far."]
    assert gained["However, such deletions have shown limited success so far."] > 0
    quoted, checked = _evidence(ranking, one=True, multi=False)
    assert "However, such deletions have shown limited success so far." in [q for _, q, _ in quoted]
    # The check reads the sentences chosen by content alone, as before.
    assert checked == ranking.pick(keep_margin=None)
