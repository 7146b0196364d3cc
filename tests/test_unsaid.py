"""A yes/no question about one paper asks about a property its abstract never mentions
(rag.answer.unsaid.unsaid_property)."""

from pathlib import Path

import pytest

from rag.answer.selection import question_terms
from rag.engine import Engine
from rag.text.normalize import content_stems
from tests.conftest import SMALL, with_papers, with_records

ABSTRACT = (
    "We introduce BlockBoost, a boosting method that learns compact binary hash codes for record "
    "linkage. It comes with feature importance measures and lower bounds on recall."
)


@pytest.mark.parametrize(
    ("question", "unsaid"),
    [
        ("Does BlockBoost use neural networks?", "not in the paper: neural network"),
        ("Does BlockBoost need GPUs?", "not in the paper: need gpus"),
        ("Is BlockBoost trained with reinforcement learning?", None),  # "learns" is there: one word is enough
        ("Does BlockBoost use boosting?", None),  # the abstract says so
        ("Does BlockBoost give lower bounds on precision?", None),  # one word of it is there
        ("What does BlockBoost use instead of neural networks?", None),  # not a yes/no question
        ("Is BlockBoost?", None),  # nothing asked beyond the name
        # "learn" is there, but not the thing learned
        ("Does BlockBoost learn neural embeddings?", "not in the paper: emb"),
        ("Does BlockBoost learn hash codes for images?", None),  # the thing learned is there
    ],
)
def test_unsaid_property(question: str, unsaid: str | None) -> None:
    from rag.answer.unsaid import unsaid_property

    have = set(content_stems(ABSTRACT))
    assert unsaid_property(question, "BlockBoost", question_terms(question), have) == unsaid


@pytest.mark.slow
def test_a_named_paper_does_not_answer_a_property_it_never_mentions(real_engine: Engine) -> None:
    # The real model puts the question close to the paper's sentences (cosine ~0.47): before
    # this rule, its sentences were the answer.
    assert real_engine.ask("Does GENIE use neural networks?").refused
    answered = real_engine.ask("Does GENIE use a preconditioner?")
    assert not answered.refused
    assert {c.label for c in answered.citations} == {"GENIE"}


def test_a_refusal_says_which_words_the_named_paper_never_uses(fake_engine: Engine, tmp_path: Path) -> None:
    engine = with_papers(fake_engine, tmp_path / "c", "c", [*SMALL, ABSTRACT])
    a = engine.ask("Does BlockBoost use neural networks?")
    assert a.refused
    assert a.note == "The abstract of BlockBoost never uses “neural” or “networks”."
    assert (
        engine.ask("Is BlockBoost evaluated on video?").note
        == "The abstract of BlockBoost never uses “evaluated” or “video”."
    )
    assert engine.ask("Does anything here use quantum annealing?").note is None  # about no one paper
    followup = engine.ask(
        "Does it need GPUs?",
        history=[
            {"role": "user", "content": "What is BlockBoost?"},
            {"role": "assistant", "content": "BlockBoost is a boosting method."},
        ],
    )
    assert followup.refused and followup.note == "The abstract of BlockBoost never uses “need” or “GPUs”."


def test_the_note_holds_for_a_paper_named_by_its_title_words(fake_engine: Engine, tmp_path: Path) -> None:
    # named by its title's words, not its label: those words name the paper, not the property
    abstracts = [*SMALL, ABSTRACT]
    meta = [{"paper_id": f"c#{i}"} for i in range(1, len(SMALL) + 1)]
    meta.append({"paper_id": f"c#{len(abstracts)}", "title": "Scalable Record Linkage with Boosted Hash Codes"})
    engine = with_records(fake_engine, tmp_path / "c", "c", abstracts, meta)
    a = engine.ask("Does the scalable record linkage boosted hash codes paper use neural networks?")
    assert a.refused
    assert a.note == "The abstract of BlockBoost never uses “neural” or “networks”."
