""" "Who introduced X?" of an X the abstract credits to others (`rag/answer/credited.py`)."""

from pathlib import Path

import pytest

from rag.engine import Engine
from tests.conftest import SMALL, SMALL_META, with_records

CREDITING = (
    "Reinforcement learning agents explore poorly when rewards are sparse. We revisit curiosity bonuses, "
    "introduced by Schmidhuber in 1991, as prediction error. Curiosity solves 12 of 15 hard exploration games."
)
META = [{**m, "authors": ["Ada Lovelace", "Alan Turing"]} for m in SMALL_META]


def test_who_introduced_what_the_abstract_credits_to_others(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL[:3], CREDITING], META)
    a = engine.ask("Who introduced curiosity bonuses?")
    assert "Schmidhuber" in a.answer and "Lovelace" not in a.answer
    assert [c.paper_id for c in a.citations] == ["x#4"] and a.citations[0].quote in CREDITING


def test_who_introduced_the_papers_own_thing_is_its_authors(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL[:3], CREDITING], META)
    assert "Ada Lovelace" in engine.ask("Who introduced GraphMix?").answer
    assert "Ada Lovelace" in engine.ask("Who wrote the curiosity bonuses paper?").answer


BUILDING_ON = (
    "The haystack retrieval test, which hides one fact in long distractor text, has been widely adopted to "
    "evaluate long-context models. We create a new synthetic benchmark, Ruler, with configurable lengths. "
    "Most models drop sharply as the context grows."
)


def test_who_introduced_what_the_abstract_only_builds_on_is_refused(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL[:3], BUILDING_ON], META)
    a = engine.ask("Who proposed the haystack retrieval test?")
    assert a.refused and "Lovelace" not in a.answer and "who introduced" in (a.note or "")
    assert a.closest and a.closest[0].paper_id == "x#4"
    assert "Ada Lovelace" in engine.ask("Who proposed Ruler?").answer  # its own benchmark: its authors


BASED_ON = (
    "We introduce a variable importance algorithm for random forests, based on the well-established drop and "
    "relearn principle. The measure is consistent. It selects small sets of variables quickly."
)
STRANGER = (
    "The relearning principle says forgotten classes return after further updates. We introduce a "
    "redistribution method that reduces relearning. Classification accuracy stays high."
)


def test_who_proposed_what_the_paper_is_based_on_is_refused(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL[:3], BASED_ON], META)
    a = engine.ask("Who proposed the drop and relearn principle?")
    assert a.refused and "Lovelace" not in a.answer
    assert "Ada Lovelace" in engine.ask("Who introduced the variable importance algorithm for random forests?").answer


def test_who_proposed_is_not_answered_by_a_stranger_sharing_one_word(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL[:3], STRANGER], META)
    a = engine.ask("Who proposed the drop and relearn principle?")
    assert a.refused and "Lovelace" not in a.answer


APPLYING = (
    "Early-exit networks give predictions at several exits. We keep them consistent by applying anytime-valid "
    "confidence sequences to the exits. The prediction sets stay nested across exits."
)
CONNECTING = (
    "Conformal prediction is a distribution-free framework that outputs label sets. In this paper, we uncover a "
    "novel connection between conformal prediction and sparse transformations. We introduce new non-conformity "
    "scores for classification."
)


@pytest.mark.parametrize(
    ("abstract", "question"),
    [
        (APPLYING, "Who introduced anytime-valid confidence sequences?"),  # applied, not introduced
        (CONNECTING, "Who proposed conformal prediction?"),  # what is new is a connection to it
    ],
)
def test_who_introduced_what_the_paper_does_not_present_as_its_own_is_refused(
    fake_engine: Engine, tmp_path: Path, abstract: str, question: str
) -> None:
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL[:3], abstract], META)
    a = engine.ask(question)
    assert a.refused and "Lovelace" not in a.answer


def test_who_introduced_a_thing_pointed_at_in_a_follow_up(fake_engine: Engine, tmp_path: Path) -> None:
    # "that setting" is not a name the abstract writes: the sentence that credits answers.
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL[:3], CREDITING], META)
    history = [
        {"role": "user", "content": "How do curiosity bonuses help exploration?"},
        {"role": "assistant", "content": "Curiosity solves 12 of 15 hard exploration games.", "paper_ids": ["x#4"]},
    ]
    a = engine.ask("Who introduced that idea?", history=history)
    assert "Schmidhuber" in a.answer and "Lovelace" not in a.answer
    assert [c.paper_id for c in a.citations] == ["x#4"]
