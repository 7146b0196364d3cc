"""A question that writes a paper's whole title, in any case, names that paper
(`Snapshot.named_in` via `_titles_in`)."""

from pathlib import Path

import pytest

from rag.engine import Engine
from tests.conftest import SMALL, with_records

META = [
    {"paper_id": "t#1", "title": "Mixing Node Features Between Neighbours Regularizes Graph Networks"},
    {"paper_id": "t#2", "title": "FoldNet: Protein Backbones by Diffusion"},
    {"paper_id": "t#3", "title": "Two Bits Are Enough for Phones"},
    {"paper_id": "t#4", "title": "Sparse Rewards Explored"},
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "t", "t", SMALL, META)


@pytest.mark.parametrize(
    ("question", "named"),
    [
        ("mixing node features between neighbours regularizes graph networks", {"t#1"}),
        ("What does Mixing Node-Features between Neighbours Regularizes Graph Networks find?", {"t#1"}),
        ("is 'two bits are enough for phones' right?", {"t#3"}),
        ("mixing node features between neighbours", set()),  # part of a title: not its name
        ("sparse rewards explored", set()),  # a title under four words is a phrase
        ("foldnet: protein backbones by diffusion", {"t#2"}),
    ],
)
def test_a_whole_title_names_its_paper_in_any_case(engine: Engine, question: str, named: set[str]) -> None:
    assert engine.retriever.snapshot.named_in(question) == named


def test_a_lowercase_title_is_answered_from_its_paper(engine: Engine) -> None:
    a = engine.ask("mixing node features between neighbours regularizes graph networks")
    assert {c.paper_id for c in a.citations} == {"t#1"}
