"""The last exchange's paper: a turn that names one beats a turn that only alludes to another
(`last_exchange.last_exchange`); of the papers an exchange alludes to, those its text matches
stay; a refused exchange whose question names no paper leaves the conversation where it was."""

from pathlib import Path

import pytest

from rag.engine import Engine
from tests.conftest import SMALL, SMALL_META, with_records

# GraphMix's abstract names another paper's model: quoting it names FoldNet by its label.
CORPUS = [SMALL[0].replace("between neighbours.", "between neighbours, as FoldNet does for residues."), *SMALL[1:]]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "x", "x", CORPUS, SMALL_META)


# The assistant quotes TinyQuant's background, which has a rare word of another title.
ALLUDING = "Quantization shrinks models for phones, where exploration of designs is slow."


@pytest.mark.parametrize(
    "question", ["Tell me more.", "What does it present?", "How many bits does it store weights in?"]
)
def test_an_answer_alluding_to_another_paper_keeps_the_one_the_question_named(engine: Engine, question: str) -> None:
    history = [{"role": "user", "content": "What does TinyQuant do?"}, {"role": "assistant", "content": ALLUDING}]
    a = engine.ask(question, history=history)
    assert {c.paper_id for c in a.citations} == {"x#3"}


def test_an_answer_that_names_a_paper_still_moves_the_conversation_to_it(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What does TinyQuant do?"},
        {"role": "assistant", "content": "TinyQuant builds on FoldNet."},
    ]
    a = engine.ask("How many folds does it design?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#2"}


def test_an_allusion_alone_is_still_read(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "Which paper is about sparse rewards?"},
        {"role": "assistant", "content": "One on curiosity for exploration."},
    ]
    a = engine.ask("How many games does it solve?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#4"}


def test_an_answer_quoting_the_named_paper_is_about_it_whatever_else_it_names(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What does GraphMix do?"},
        {
            "role": "assistant",
            "content": "GraphMix interpolates node features between neighbours, as FoldNet does for residues.",
        },
    ]
    a = engine.ask("What accuracy gain does it report?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#1"} and "3.5%" in a.answer


# Papers on the alluding answer's theme, so that the paper a rare word of it alludes to is not
# among the best matches for the exchange's text.
ON_THEME = [
    f"Language models run slowly on phones. We store their weights with {how}, keeping the accuracy of the full model."
    for how in (
        "pruning",
        "distillation",
        "low-rank factors",
        "weight sharing",
        "hashing",
        "early exits",
        "sparse attention",
        "token merging",
        "vocabulary trimming",
        "layer dropping",
    )
]
ON_THEME_META = [{"paper_id": f"x#{i}", "title": f"Compression Study {i}"} for i in range(5, 15)]


def _cited_after_answer(engine: Engine, answer: str, question: str) -> set[str]:
    """The papers cited for `question` after a question on phones got `answer` (text only)."""
    history = [
        {"role": "user", "content": "How can language models run on phones?"},
        {"role": "assistant", "content": answer},
    ]
    return {c.paper_id for c in engine.ask(question, history=history).citations}


def test_an_allusion_the_exchange_does_not_describe_gives_way_to_the_paper_it_does(
    fake_engine: Engine, tmp_path: Path
) -> None:
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL, *ON_THEME], [*SMALL_META, *ON_THEME_META])
    answer = (
        "One method stores the weights of language models in 2 bits and keeps 98% of the "
        "accuracy of the full model on reading comprehension, like smaller backbones."
    )
    assert _cited_after_answer(engine, answer, "How many bits does it store weights in?") == {"x#3"}


REFUSED = "The indexed abstracts do not contain the answer to this question."


@pytest.mark.parametrize("ids", [False, True])
def test_a_refused_exchange_leaves_the_conversation_on_its_paper(engine: Engine, ids: bool) -> None:
    # The refused question's words match another abstract best ("prediction error").
    history: list[dict[str, object]] = [
        {"role": "user", "content": "What does TinyQuant do?"},
        {"role": "assistant", "content": "TinyQuant stores weights in 2 bits."},
        {"role": "user", "content": "Does it use prediction error?"},
        {"role": "assistant", "content": REFUSED},
    ]
    if ids:
        history[1]["paper_ids"], history[3]["paper_ids"] = ["x#3"], []
    a = engine.ask("How much of the accuracy does it keep?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#3"} and "98%" in a.answer


def test_a_refused_question_that_names_a_paper_moves_the_conversation(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What does TinyQuant do?"},
        {"role": "assistant", "content": "TinyQuant stores weights in 2 bits."},
        {"role": "user", "content": "Does FoldNet use language models?"},
        {"role": "assistant", "content": REFUSED},
    ]
    a = engine.ask("How many folds does it design?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#2"}


def test_of_the_papers_an_exchange_alludes_to_only_those_its_text_matches_stay(
    fake_engine: Engine, tmp_path: Path
) -> None:
    # The answer alludes to two titles ("quantization", "diffusion"); its text is about one.
    meta = [*SMALL_META, *ON_THEME_META]
    meta[2] = {"paper_id": "x#3", "title": "Quantization of Language Models for Phones"}
    engine = with_records(fake_engine, tmp_path / "x", "x", [*SMALL, *ON_THEME], meta)
    answer = (
        "One quantization method stores the weights of language models in 2 bits and keeps "
        "98% of the accuracy of the full model, with no diffusion."
    )
    assert _cited_after_answer(engine, answer, "Tell me more.") == {"x#3"}
