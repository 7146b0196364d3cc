"""A paper identified by what it describes ("Which paper proposes a dual-sampling framework for
diffusion models?"): with a thousand real abstracts indexed, papers close to the topic on every
signal outranked the one that writes the description, and the first of them answered, cited.
The paper that writes the question's rare words answers (`runner_up.described_runner_up`)."""

from __future__ import annotations

import pytest

from rag.answer.runner_up import asks_which_paper
from rag.engine import Engine


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
        ("I remember a paper that fuses forecasters per sample - which paper was it?", True),
        # not asking which paper: a detail, a list, or a named paper
        ("What accuracy does GENIE reach?", False),
        ("Which papers study diffusion models?", False),
        ("How does the paper on dual sampling speed up diffusion?", False),
    ],
)
def test_asks_which_paper(question: str, expected: bool) -> None:
    assert asks_which_paper(question) is expected
