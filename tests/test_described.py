"""A paper identified by what it describes ("Which paper proposes a dual-sampling framework for
diffusion models?"): with a thousand real abstracts indexed, papers close to the topic on every
signal outranked the one that writes the description, and the first of them answered, cited.
The paper that writes the question's rare words answers (`described.described_runner_up`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from rag.answer.described import asks_which_paper
from rag.engine import Engine
from tests.conftest import with_papers


@pytest.mark.slow
@pytest.mark.parametrize(
    ("question", "paper"),
    [
        ("Which paper proposes a dual-sampling framework for diffusion models?", "003_3841b65dac86879d#17"),
        ("Which paper proposes a mode-guided diffusion model?", "000_3578a6a037ed62e9#14"),
    ],
)
def test_the_paper_writing_a_description_answers_at_scale(scale_engine: Engine, question: str, paper: str) -> None:
    a = scale_engine.ask(question, explain=True)
    assert not a.refused, a.explain
    assert [c.paper_id for c in a.citations][:1] == [paper], a.explain


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Which paper proposes a dual-sampling framework for diffusion models?", True),
        ("Is there a paper that introduces a tokenwise parallel sampling algorithm?", True),
        ("paper with a new mixed-precision approach", True),
        ("What paper uses Thompson sampling for feasibility?", True),
        ("What's the paper where attention gives saliency maps?", True),
        ("What is the paper that fuses forecasters?", True),
        ("I remember a paper that fuses forecasters per sample - which paper was it?", True),
        # not asking which paper: a detail, a list, or a named paper
        ("What accuracy does GENIE reach?", False),
        ("Which papers study diffusion models?", False),
        ("How does the paper on dual sampling speed up diffusion?", False),
    ],
)
def test_asks_which_paper(question: str, expected: bool) -> None:
    assert asks_which_paper(question) is expected


AMBIGUOUS = [
    "Prediction intervals need coverage. We propose a new conformal regression method based on splines. "
    "It gives valid intervals on ten datasets.",
    "Prediction sets should be small. We propose a new conformal regression method based on sparse activations. "
    "It shrinks intervals by 20% on tabular data.",
    "Graph neural networks oversmooth. We present a layer that mixes node features across hops.",
]


@pytest.fixture
def ambiguous(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_papers(fake_engine, tmp_path / "amb", "amb", AMBIGUOUS)


def test_a_description_two_papers_fit_names_the_other_in_the_note(ambiguous: Engine) -> None:
    a = ambiguous.ask("Which paper proposes a new conformal regression method?", explain=True)
    assert not a.refused, a.explain
    cited = {c.paper_id for c in a.citations}
    other = ({"amb#1", "amb#2"} - cited).pop()
    assert a.note is not None and "1 other indexed paper fits this description" in a.note
    paper = ambiguous.retriever.snapshot.papers[other]
    assert f"\u201c{paper.title or paper.label}\u201d" in a.note


def test_a_description_one_paper_fits_has_no_note(ambiguous: Engine) -> None:
    a = ambiguous.ask("Which paper proposes a conformal regression method based on sparse activations?")
    assert [c.paper_id for c in a.citations][:1] == ["amb#2"]
    assert a.note is None
