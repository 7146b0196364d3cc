"""A follow-up's names: one that goes back to an earlier paper of the conversation by name
(`conversation._named_back`), and one that the discussed paper itself writes, though another
paper coins it (`pointed.names_another_paper`)."""

from pathlib import Path

import pytest

from rag.answer.conversation import after_moving_on, moves_on
from rag.engine import Engine
from tests.conftest import SMALL, SMALL_META, with_records

# A fifth paper coins "Cora", which GraphMix's abstract uses as its benchmark.
CORPUS = [*SMALL, "We release Cora, a citation graph of 2,708 papers for node classification. Cora has seven classes."]
META = [*SMALL_META, {"paper_id": "x#5", "title": "Cora: A Citation Graph for Node Classification"}]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "x", "x", CORPUS, META)


TWO_PAPERS = [
    {"role": "user", "content": "Is there a regularizer for graph networks?"},
    {"role": "assistant", "content": "GraphMix mixes node features.", "paper_ids": ["x#1"]},
    {"role": "user", "content": "And one that compresses language models?"},
    {"role": "assistant", "content": "TinyQuant stores weights in very few bits.", "paper_ids": ["x#3"]},
]


def test_a_question_naming_an_earlier_paper_goes_back_to_it(engine: Engine) -> None:
    a = engine.ask("Going back to GraphMix, how much does it improve accuracy?", history=TWO_PAPERS)
    assert {c.paper_id for c in a.citations} == {"x#1"} and "3.5%" in a.answer


def test_a_referring_question_without_a_name_stays_with_the_last_paper(engine: Engine) -> None:
    a = engine.ask("How much of the accuracy does it keep?", history=TWO_PAPERS)
    assert {c.paper_id for c in a.citations} == {"x#3"} and "98%" in a.answer


@pytest.mark.parametrize("turn", [{"paper_ids": ["x#1"]}, {}])
def test_a_name_the_discussed_paper_writes_keeps_the_conversation(engine: Engine, turn: dict[str, object]) -> None:
    history = [
        {"role": "user", "content": "What does GraphMix do?"},
        {"role": "assistant", "content": "GraphMix interpolates node features between neighbours.", **turn},
    ]
    a = engine.ask("On Cora, how much does it improve accuracy?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#1"} and "3.5%" in a.answer


def test_a_name_the_discussed_paper_does_not_write_moves_on(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "What does TinyQuant do?"},
        {"role": "assistant", "content": "TinyQuant stores weights in 2 bits.", "paper_ids": ["x#3"]},
    ]
    a = engine.ask("How many classes does Cora have?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#5"}


@pytest.mark.parametrize(
    ("question", "moves"),
    [
        ("Which language are its actions written in, Python or something else?", False),  # an alternative
        ("Is it a tree or something different?", False),
        ("Tell me something else: what is X?", True),
        ("Changing the topic, what is X?", True),
    ],
)
def test_what_moves_the_conversation_on(question: str, moves: bool) -> None:
    assert moves_on(question) is moves


@pytest.mark.parametrize(
    ("question", "alone"),
    [
        ("Now switch topics: what does the paper on X prove?", "What does the paper on X prove?"),
        ("Changing the subject, which papers study fairness?", "Which papers study fairness?"),
        ("OK, moving on. Which benchmark does it use?", "Which benchmark does it use?"),
        ("Switching gears what is GraphMix?", "What is GraphMix?"),
        ("What does the new topic model learn?", None),  # no lead-in
        ("Is there a paper on switching topics in dialogue?", None),
        ("Let us switch topics", None),  # nothing asked after it
    ],
)
def test_a_lead_in_that_moves_on_is_no_part_of_the_question(question: str, alone: str | None) -> None:
    assert after_moving_on(question) == alone


def test_a_question_that_moves_on_is_asked_as_if_alone(engine: Engine) -> None:
    q = "What is Cora?"
    alone = engine.ask(q)
    moved = engine.ask(f"Now, switching topics: {q[0].lower()}{q[1:]}", history=TWO_PAPERS)
    assert moved.answer == alone.answer and {c.paper_id for c in moved.citations} == {"x#5"}


def test_going_back_by_title_words_among_the_conversations_papers(fake_engine: Engine, tmp_path: Path) -> None:
    # Two titles hold "regularizing graph networks"; the conversation discussed one of them.
    corpus = [*CORPUS, "We scale graph attention to a billion edges with a new sparse kernel."]
    meta = [*META, {"paper_id": "x#6", "title": "Regularizing Graph Attention Networks at Scale"}]
    engine = with_records(fake_engine, tmp_path / "x", "x", corpus, meta)
    history = [
        {"role": "user", "content": "Is there a regularizer for graph networks?"},
        {"role": "assistant", "content": "One interpolates node features between neighbours.", "paper_ids": ["x#1"]},
        *TWO_PAPERS[2:],
    ]
    q = "Going back to the regularizing graph networks paper, how much does it improve accuracy?"
    a = engine.ask(q, history=history)
    assert {c.paper_id for c in a.citations} == {"x#1"} and "3.5%" in a.answer


def test_a_paper_the_user_names_by_title_words_outweighs_an_allusion(engine: Engine) -> None:
    # the answer alludes to FoldNet by a rare title word ("backbones"); the user named GraphMix
    history = [
        {"role": "user", "content": "Tell me about the paper on regularizing graph neural networks."},
        {"role": "assistant", "content": "It mixes node features between neighbours, like shared backbones."},
    ]
    a = engine.ask("And how much did it improve accuracy?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#1"} and "3.5%" in a.answer


def test_a_user_turn_matching_several_papers_offers_no_list(engine: Engine) -> None:
    """A user turn that fits several papers is no answer's list: a word of another one's title in
    the question ("backbones") does not point away from the paper the answer settled on."""
    history = [
        {
            "role": "user",
            "content": "I saw papers on graph networks and protein diffusion.",
            "paper_ids": ["x#1", "x#2"],
        },
        {"role": "assistant", "content": "GraphMix regularizes graph networks.", "paper_ids": ["x#1"]},
    ]
    a = engine.ask("How much does it improve accuracy over backbones?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#1"} and "3.5%" in a.answer


@pytest.mark.parametrize(
    "question", ["Is there another paper on graph attention networks?", "Any other works on graph attention networks?"]
)
def test_asking_for_another_paper_sets_the_discussed_one_aside(
    fake_engine: Engine, tmp_path: Path, question: str
) -> None:
    corpus = [*CORPUS, "We scale graph attention networks to a billion edges with a new sparse kernel."]
    engine = with_records(fake_engine, tmp_path / "x", "x", corpus, [*META, {"paper_id": "x#6"}])
    history = [
        {"role": "user", "content": "Is there a regularizer for graph networks?"},
        {"role": "assistant", "content": "GraphMix mixes node features.", "paper_ids": ["x#1"]},
    ]
    a = engine.ask(question, history=history)
    cited = {c.paper_id for c in a.citations}
    assert "x#6" in cited and "x#1" not in cited
