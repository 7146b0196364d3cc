"""Two indexed papers with the same title name ("Mind the Gap: …" twice): a question using the
name is answered from them, never from a stranger that shares its words, and in a conversation
the name means the namesake the conversation is about."""

from pathlib import Path

import pytest

from rag.answer.turns import turn_papers
from rag.engine import Engine
from tests.conftest import SMALL, SMALL_META, with_records

PAPERS = [
    "Subpopulation shifts hurt classifiers. We develop group-aware priors over network parameters. "
    "The priors improve worst-group accuracy with little group data.",
    "Attention layers lose rank as context grows. We show a spectral gap in the attention matrix "
    "causes rank collapse in width. Removing the outlier eigenvalue restores signal propagation.",
    "Theory of mind games test whether language models infer beliefs. Mind games reveal a gap between "
    "models and people. Models find the gap in the mind of other players hard to close.",
]
META = [
    {"paper_id": "gap#1", "title": "Mind the GAP: Group-Aware Priors for Subpopulation Shift"},
    {"paper_id": "gap#2", "title": "Mind the Gap: Rank Collapse in Attention Layers"},
    {"paper_id": "gap#3", "title": "MindGames: Theory of Mind in Language Models"},
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "gap", "gap", PAPERS, META)


def test_a_shared_name_is_answered_from_its_papers_never_a_stranger(engine: Engine) -> None:
    a = engine.ask("What does the Mind the Gap paper find about the gap?", explain=True)
    assert not a.refused, a.explain
    cited = {c.paper_id for c in a.citations}
    assert cited and cited <= {"gap#1", "gap#2"}
    assert a.note and "Mind the Gap: Rank Collapse" in a.note and "Mind the GAP: Group-Aware" in a.note


def test_in_a_conversation_the_name_means_the_namesake_it_is_about(engine: Engine) -> None:
    history = [
        {"role": "user", "content": "Which papers study rank collapse in attention layers theoretically?"},
        {"role": "assistant", "content": "MindGames [1] and Mind the Gap [2]."},
    ]
    a = engine.ask("give me the tl;dr of the second one", history=history, explain=True)
    assert {c.paper_id for c in a.citations} == {"gap#2"}, a.explain


LABELLED = [
    "Robots fail when grasping unseen objects. We present ADEPT, a grasp planner trained on simulated "
    "objects. ADEPT grasps 90% of unseen household objects.",
    "Language models forget facts after editing. We present ADEPT, an editing method that keeps "
    "unrelated facts intact. ADEPT edits thousands of facts without forgetting.",
]


def test_in_a_conversation_a_shared_label_means_the_paper_discussed(fake_engine: Engine, tmp_path: Path) -> None:
    meta = [
        {"paper_id": "ad#1", "title": "ADEPT: Grasp Planning for Unseen Objects"},
        {"paper_id": "ad#2", "title": "ADEPT: Editing Facts without Forgetting"},
    ]
    engine = with_records(fake_engine, tmp_path / "ad", "ad", LABELLED, meta)
    history = [
        {"role": "user", "content": "What is ADEPT?"},
        {"role": "assistant", "content": "ADEPT: an editing method that keeps unrelated facts intact."},
    ]
    a = engine.ask("summarize it", history=history, explain=True)
    assert {c.paper_id for c in a.citations} == {"ad#2"}, a.explain


def test_a_label_two_papers_share_is_answered_from_both_and_said(fake_engine: Engine, tmp_path: Path) -> None:
    meta = [
        {"paper_id": "ad#1", "title": "ADEPT: Grasp Planning for Unseen Objects"},
        {"paper_id": "ad#2", "title": "ADEPT: Editing Facts without Forgetting"},
    ]
    engine = with_records(fake_engine, tmp_path / "ad", "ad", LABELLED, meta)
    a = engine.ask("What is ADEPT?", explain=True)
    assert {c.paper_id for c in a.citations} == {"ad#1", "ad#2"}, a.explain
    assert a.note and "Grasp Planning" in a.note and "Editing Facts" in a.note


def test_a_comparison_naming_a_shared_label_compares_each_namesake(fake_engine: Engine, tmp_path: Path) -> None:
    cache = "Key-value caches limit long contexts. We introduce CacheZip, a codec for key-value caches."
    meta = [
        {"paper_id": "ad#1", "title": "ADEPT: Grasp Planning for Unseen Objects"},
        {"paper_id": "ad#2", "title": "ADEPT: Editing Facts without Forgetting"},
        {"paper_id": "ad#3", "title": "CacheZip: Compressing Key-Value Caches"},
    ]
    engine = with_records(fake_engine, tmp_path / "ad", "ad", [*LABELLED, cache], meta)
    a = engine.ask("Compare ADEPT and CacheZip on editing facts without forgetting", explain=True)
    assert a.explain and "the question compares ['ad#2', 'ad#1', 'ad#3']" in a.explain[0]  # the closest first
    assert "ad#2" in {c.paper_id for c in a.citations} <= {"ad#1", "ad#2", "ad#3"}
    assert a.note and a.note.index("Editing Facts") < a.note.index("Grasp Planning")


def test_a_turn_naming_a_shared_title_head_means_the_paper_whose_rest_it_writes(
    fake_engine: Engine, tmp_path: Path
) -> None:
    # Both titles open with "Open Problem:"; the user's words write the rest of one of them.
    meta = [dict(m) for m in SMALL_META]
    meta[1]["title"] = "Open Problem: Protein Backbones by Diffusion"
    meta[2]["title"] = "Open Problem: Two-Bit Language Models"
    engine = with_records(fake_engine, tmp_path / "x", "x", SMALL, meta)
    history = [
        {"role": "user", "content": "What is the open problem about two-bit language models?"},
        {"role": "assistant", "content": "It asks how few bits a phone model needs."},
    ]
    snap = engine.retriever.snapshot
    assert turn_papers(history[0], snap) == ["x#3"]
    assert turn_papers({"role": "user", "content": "Which open problem papers are there?"}, snap) == ["x#2", "x#3"]
    a = engine.ask("How much of the accuracy does it keep?", history=history)
    assert {c.paper_id for c in a.citations} == {"x#3"} and "98%" in a.answer
