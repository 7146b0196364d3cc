"""Labels with characters other than word characters (a short title used as the
label: "Power (Laws)?") are found by the question's words (`Snapshot.named_in`: such labels are keyed by their first run of word
characters), and the answer's repeated look-ups of one question share one result."""

import re
from pathlib import Path

import pytest

from rag.engine import Engine
from rag.index.snapshot import Snapshot
from tests.conftest import with_records

# Abstracts that coin no name: each paper's label is its title.
ABSTRACTS = [
    "Sampling many answers from a language model raises its success rate. We explain why the rate follows "
    "a power law across problems.",
    "Attention layers lose rank with depth. We analyse the spectrum of random attention matrices and find "
    "a gap between the two largest singular values.",
    "Models of atomic forces need not conserve energy. We assess what is lost when forces are predicted "
    "directly instead of as gradients.",
]
META = [
    {"paper_id": "o#1", "title": "Power (Laws)?"},
    {"paper_id": "o#2", "title": "Mind the Gap!"},
    {"paper_id": "o#3", "title": "Forces, Directly"},
]  # under four words: a whole title found in any case (`_titles_in`) would not find these


@pytest.fixture
def snap(fake_engine: Engine, tmp_path: Path) -> Snapshot:
    engine = with_records(fake_engine, tmp_path / "o", "o", ABSTRACTS, META)
    engine.ensure_index()
    return engine.retriever.snapshot


def _odd(snap: Snapshot) -> dict[str, str]:
    return {
        pid: p.label
        for pid, p in snap.papers.items()
        if pid in snap.naming and not re.fullmatch(r"[\w-]+(?:\s+[\w-]+)*", p.label)
    }


def test_each_label_with_other_characters_is_found_where_the_question_writes_it(snap: Snapshot) -> None:
    odd = _odd(snap)
    assert len(odd) >= 2, odd  # the fixture has such labels
    for pid, label in odd.items():
        assert pid in snap.named_in(f"How does {label} work?"), label
        assert pid in snap.named_in(f"({label}) and its baselines"), label
        assert pid not in snap.named_in(f"How does x{label} work?"), label  # not a whole word
        assert pid not in snap.named_in("How do language models sample answers?"), label


def test_a_remembered_result_is_not_changed_by_its_caller(snap: Snapshot) -> None:
    pid, label = next(iter(_odd(snap).items()))
    question = f"What is {label}?"
    first = snap.named_in(question)
    first.clear()  # a caller may use the set as its own
    assert snap.named_in(question) == {pid}
