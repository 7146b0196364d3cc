"""A paper referred to by a description before "paper" / "work" / "study"
(`rag/answer/described_as.py`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.described_as import description
from rag.engine import Engine
from rag.text.normalize import content_stems
from tests.conftest import SMALL, SMALL_META, with_records


def _stems(text: str) -> set[str]:
    return set(content_stems(text))


@pytest.mark.parametrize(
    ("question", "described"),
    [
        ("Does the missing-labels evaluation paper use deep learning?", "missing labels evaluation"),
        ("In the stochastic rounding work, what is shown?", "stochastic rounding"),
        ("Which datasets does the AdaSplash paper use?", "AdaSplash"),
        ("What does the first paper do?", ""),  # a position, not a description
        ("What do the authors study?", ""),  # "study" is the verb of a plural subject
        ("What is the recovery algorithm in the paper?", ""),  # a determiner ends it
        ("What is shown in the theoretical study of how attention selects tokens?", ""),  # described after "of"
        ("What does the delta learning hypothesis work claim?", "delta learning hypothesis"),
    ],
)
def test_description(question: str, described: str) -> None:
    assert description(question) == _stems(described)


@given(st.text(max_size=120))
def test_description_never_raises(question: str) -> None:
    assert isinstance(description(question), set)


def test_a_described_paper_answers_or_nobody_does(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_records(fake_engine, tmp_path / "x", "x", SMALL, SMALL_META)
    # The rest of the question fits TinyQuant, which had answered; the description fits the
    # title of a paper that does not say.
    for paper in ("curiosity", "backbones"):
        a = engine.ask(f"Does the {paper} paper keep 98% of the accuracy of the full model on reading comprehension?")
        assert a.refused and not a.citations
    a = engine.ask("Does the two-bit language models paper keep 98% of the accuracy of the full model?")
    assert {c.paper_id for c in a.citations} == {"x#3"}
