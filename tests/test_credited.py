""" "Who introduced X?" of an X the abstract credits to others (`rag/answer/credited.py`)."""

from pathlib import Path

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
