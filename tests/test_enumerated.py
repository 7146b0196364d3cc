"""An answer that offers two papers, one only described: "the first one" is the described one
(`enumerated.two_items`, `conversation._pointed_in_pair`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.enumerated import two_items
from rag.engine import Engine
from tests.conftest import SMALL, SMALL_META, with_records


@pytest.mark.parametrize(
    ("text", "items"),
    [
        (
            "Two options: KVSink, which keeps sinks precise, and BumbleBee, which picks tokens.",
            ("KVSink, which keeps sinks precise", "BumbleBee, which picks tokens."),
        ),
        (
            "Two come to mind: one reporting a small, random coreset, and The Mirage, which probes.",
            ("one reporting a small, random coreset", "The Mirage, which probes."),
        ),
        # an apposition is no second item; the second opens after ", and"
        (
            "N-Gram Attack, a black-box attack on outputs, and a study of whether attacks work.",
            ("N-Gram Attack, a black-box attack on outputs", "a study of whether attacks work."),
        ),
        (
            "A detector that uses keys and targets short texts; a scheme that resists spoofing.",
            ("A detector that uses keys and targets short texts", "a scheme that resists spoofing."),
        ),
        ("GraphMix interpolates node features, which helps.", None),
        ("It mixes features and labels.", None),  # no comma: one item
    ],
)
def test_two_items(text: str, items: tuple[str, str] | None) -> None:
    assert two_items(text) == items


@given(st.text(max_size=200))
def test_two_items_never_raises(text: str) -> None:
    got = two_items(text)
    assert got is None or all(got)


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "x", "x", SMALL, SMALL_META)


OFFERED = [
    {"role": "user", "content": "Any work on graphs or on small language models?"},
    {
        "role": "assistant",
        "content": "Two options: one that interpolates node features between neighbours in graph neural "
        "networks, and TinyQuant, which stores weights in very few bits.",
    },
]


def test_the_first_one_is_the_described_paper(engine: Engine) -> None:
    a = engine.ask("For the first one, how much does it improve accuracy?", history=OFFERED)
    assert {c.paper_id for c in a.citations} == {"x#1"} and "3.5%" in a.answer


def test_the_second_one_is_the_named_paper(engine: Engine) -> None:
    a = engine.ask("How much of the accuracy does the second one keep?", history=OFFERED)
    assert {c.paper_id for c in a.citations} == {"x#3"} and "98%" in a.answer
