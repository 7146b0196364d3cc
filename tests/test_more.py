""" "Tell me more" in a conversation: more of the discussed paper, never what was quoted before
(`rag.answer.more`, `routes._more`)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.more import asks_for_more, said_before, unsaid
from rag.engine import Engine
from tests.conftest import with_papers

PAPERS = [
    "Long contexts make key-value caches the memory bottleneck. We introduce CacheZip, a codec for "
    "key-value caches. CacheZip quantizes keys with a learned codebook. It halves memory at equal "
    "accuracy on four long-context benchmarks. Code is released.",
    "Protein design needs accurate structure models. We introduce FoldNet, a diffusion model that "
    "generates protein backbones. FoldNet is trained on predicted structures.",
]


@pytest.mark.parametrize(
    ("question", "more"),
    [
        ("Tell me more.", True),
        ("tell me more", True),
        ("Can you elaborate?", True),
        ("Could you please elaborate on that?", True),
        ("Go on", True),
        ("Thanks! Tell me more about it, please.", True),
        ("OK, what else?", True),
        ("What else does the paper say?", True),
        ("Any more details?", True),
        ("More please", True),
        ("Anything else?", True),
        ("Tell me more about the second one.", True),
        ("ok, go on about it", True),
        ("Can you expand on that?", True),
        ("Tell me more about memory.", False),  # asks about something: answered as a question
        ("What else reduces memory?", False),
        ("Tell me about CacheZip.", False),
        ("Continue training for how many steps?", False),
    ],
)
def test_asks_for_more(question: str, more: bool) -> None:
    assert asks_for_more(question) is more


def test_unsaid_skips_what_an_answer_quoted_by_its_words() -> None:
    said = said_before(
        [
            {"role": "user", "content": "What is it?"},
            {"role": "assistant", "content": "We introduce **CacheZip**, a codec for key-value caches. [1]"},
        ]
    )
    ranked = [
        ("a", "We introduce CacheZip, a codec for key-value caches.", 1.0),
        ("b", "CacheZip quantizes keys.", 0.9),
        ("c", "It halves memory.", 0.8),
    ]
    assert [e[0] for e in unsaid(ranked, said)] == ["b", "c"]
    assert [e[0] for e in unsaid(ranked, said, n=1)] == ["b"]


@given(st.text(max_size=80))
def test_asks_for_more_never_raises(question: str) -> None:
    asks_for_more(question)


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_papers(fake_engine, tmp_path / "m", "m", PAPERS)


def test_tell_me_more_quotes_new_sentences_until_none_are_left(engine: Engine) -> None:
    history: list[dict[str, object]] = [{"role": "user", "content": "What is CacheZip?"}]
    first = engine.ask("What is CacheZip?")
    assert {c.paper_id for c in first.citations} == {"m#1"}
    history.append({"role": "assistant", "content": first.answer, "paper_ids": ["m#1"]})
    quoted = {c.quote for c in first.citations}
    for _ in range(3):
        a = engine.ask("Tell me more.", history=history)
        if a.refused:
            break
        assert {c.paper_id for c in a.citations} == {"m#1"}
        assert not quoted & {c.quote for c in a.citations}  # nothing said before is said again
        assert a.sources[0].paper_id == "m#1"
        quoted |= {c.quote for c in a.citations}
        history += [{"role": "user", "content": "Tell me more."}, {"role": "assistant", "content": a.answer}]
    assert a.refused and a.note and a.note.startswith("The earlier answers quoted every sentence")
    assert len(quoted) == 4  # every sentence but the one about released code (never evidence)


def test_tell_me_more_with_no_conversation_is_a_question_like_any_other(engine: Engine) -> None:
    assert engine.ask("Tell me more.").refused


def test_tell_me_more_follows_the_paper_the_history_names(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "Which model generates protein backbones?"},
        {"role": "assistant", "content": "That's FoldNet, a diffusion model."},
    ]
    a = engine.ask("Go on.", history=history)
    assert not a.refused and {c.paper_id for c in a.citations} == {"m#2"}


def test_tell_me_more_about_one_of_a_list(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "Which papers introduce new models?"},
        {"role": "assistant", "content": "CacheZip and FoldNet.", "paper_ids": ["m#1", "m#2"]},
    ]
    a = engine.ask("Tell me more about the second one.", history=history)
    assert not a.refused and {c.paper_id for c in a.citations} == {"m#2"}
