"""A phrase in quotes is asked word for word (`rag.answer.quoted`, `routes._quoted`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.quoted import asks_only_where, quoted_phrases, sentence_with, writing
from rag.engine import Engine
from rag.text.normalize import spaced_words
from tests.conftest import with_papers

PAPERS = [
    "Long contexts make key-value caches the memory bottleneck. We introduce CacheZip, a codec with "
    "adaptive residual feedback. CacheZip halves memory at equal accuracy.",
    "Protein design needs accurate structure models. We introduce FoldNet, a diffusion model that "
    "generates protein backbones. FoldNet uses adaptive residual feedback too.",
    "Sparse rewards make exploration hard. We study curiosity bonuses for exploration. Curiosity solves 12 of 15 games.",
]


@pytest.mark.parametrize(
    ("question", "phrases"),
    [
        ('Which paper says "adaptive residual feedback"?', ["adaptive residual feedback"]),
        ("Where does “curse of complexity” come from?", ["curse of complexity"]),
        ("What's the 'curse of complexity'?", ["curse of complexity"]),
        ('What is "grokking"?', []),  # one word: a term, read as a name
        ("It's the paper's key idea", []),  # apostrophes are no quotes
        ("No quotes here", []),
    ],
)
def test_quoted_phrases(question: str, phrases: list[str]) -> None:
    assert quoted_phrases(question) == phrases


@pytest.mark.parametrize(
    ("question", "only"),
    [
        ('Which paper says "adaptive residual feedback"?', True),
        ('I saw the phrase "adaptive residual feedback" - which paper is it?', True),
        ('Which abstracts mention "adaptive residual feedback"?', True),
        ('How much memory does "adaptive residual feedback" save?', False),
    ],
)
def test_asks_only_where(question: str, only: bool) -> None:
    assert asks_only_where(question, quoted_phrases(question)) is only


def test_writing_matches_words_not_marks() -> None:
    texts = {"a": spaced_words("Lomb–Scargle conditioned diffusion"), "b": spaced_words("Lomb Scargle-ish")}
    assert writing(["lomb-scargle conditioned"], texts) == ["a"]
    assert writing(["scargle cond"], texts) == []  # whole words only
    assert sentence_with(["Scargle conditioned"], ["First.", "A Lomb–Scargle conditioned model."]) == (
        "A Lomb–Scargle conditioned model."
    )


@given(st.text(max_size=120))
def test_quoted_phrases_never_raise(question: str) -> None:
    for phrase in quoted_phrases(question):
        assert len(spaced_words(phrase).split()) >= 2


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_papers(fake_engine, tmp_path / "q", "q", PAPERS)


def test_which_paper_says_lists_the_papers_that_write_it(engine: Engine) -> None:
    a = engine.ask('Which paper says "adaptive residual feedback"?')
    assert not a.refused and a.note == "2 indexed abstracts write “adaptive residual feedback”."
    quotes = {c.quote for c in a.citations}
    assert quotes == {
        "We introduce CacheZip, a codec with adaptive residual feedback.",
        "FoldNet uses adaptive residual feedback too.",
    }
    # the papers that write it first, then the question's other closest papers (10, or all)
    assert {s.paper_id for s in a.sources[:2]} == {c.paper_id for c in a.citations} == {"q#1", "q#2"}
    assert {s.paper_id for s in a.sources} == {"q#1", "q#2", "q#3"}


def test_a_question_about_a_quoted_phrase_is_answered_among_the_papers_that_write_it(engine: Engine) -> None:
    a = engine.ask('What does "curiosity bonuses" solve?')
    assert {c.paper_id for c in a.citations} <= {"q#3"}
    assert a.note and a.note.startswith("Answered from the one indexed paper that writes “curiosity bonuses”.")


def test_a_quoted_phrase_is_not_respelled(engine: Engine) -> None:
    # "CacheZap" is one letter from the label "CacheZip", but inside quotes it is asked as typed
    a = engine.ask('Which paper says "CacheZap halves memory"?')
    assert (a.note or "").startswith("No indexed abstract writes “CacheZap halves memory” word for word.")


def test_a_phrase_no_abstract_writes_is_said(engine: Engine) -> None:
    a = engine.ask('Which paper says "a phrase nobody wrote"?')
    assert a.note and a.note.startswith("No indexed abstract writes “a phrase nobody wrote” word for word.")
