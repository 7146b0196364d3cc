"""A question with a records question after it: "What is X and who wrote it?" (`rag.answer.compound`)."""

from pathlib import Path

import pytest

from rag.answer.compound import record_part
from rag.engine import Engine
from tests.conftest import with_records
from tests.test_records import META, PAPERS


@pytest.mark.parametrize(
    ("question", "parts"),
    [
        ("What is CacheZip and who wrote it?", ("What is CacheZip?", "who wrote it?")),
        ("What does CacheZip do, and who are the authors?", ("What does CacheZip do?", "who are the authors?")),
        ("What is CacheZip and when was it published?", ("What is CacheZip?", "when was it published?")),
        ("What is CacheZip and where can I read it?", ("What is CacheZip?", "where can I read it?")),
        ("Who wrote CacheZip and what is it?", None),  # the records question first: its own rule
        ("Compare CacheZip and FoldNet", None),
        ("How do models learn when and where to look?", None),
    ],
)
def test_record_part(question: str, parts: tuple[str, str] | None) -> None:
    assert record_part(question) == parts


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "rec", "rec", PAPERS, META)


def test_what_it_is_and_who_wrote_it(engine: Engine) -> None:
    a = engine.ask("What is CacheZip and who wrote it?")
    alone = engine.ask("What is CacheZip?")
    assert not a.refused and a.answer.startswith(alone.answer)
    assert a.answer.endswith("“CacheZip: Compressing Key-Value Caches” is by Ada Lovelace and Alan Turing. [1]")
    assert {c.paper_id for c in a.citations} == {"rec#1"} and {c.n for c in a.citations} == {1}
    assert a.note == "The last line: from the papers' records (their metadata), not from the abstracts."
    assert len(a.sentences) == len(alone.sentences) + 1


def test_an_unknown_paper_is_refused_whole(engine: Engine) -> None:
    assert engine.ask("What is FlibberNet and who wrote it?").refused
