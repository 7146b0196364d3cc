"""Accents and compatibility forms are folded wherever words are matched (`normalize.fold`):
a reader types "Tulu 3" for "TÜLU 3" and "Renyi" for "Rényi", and a PDF's ligature must not
split "classiﬁcation" in two."""

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.answer.overview import names_only
from rag.answer.references import compared
from rag.engine import Engine
from rag.index.bm25 import PERSIST_FILE, build_bm25, load_bm25
from rag.index.chunks import Record
from rag.index.loading import _bm25
from rag.retrieval.signals import bm25_scores
from rag.text.normalize import content_stems, fold, spaced_words, squash, words, writes_name
from tests.conftest import with_records


@pytest.mark.parametrize(
    ("text", "folded"),
    [
        ("TÜLU 3", "TULU 3"),
        ("Rényi divergence", "Renyi divergence"),
        ("Schrödinger", "Schrodinger"),
        ("classiﬁcation and eﬀect", "classification and effect"),
        ("MGD³", "MGD3"),
        ("Gonçalves", "Goncalves"),
        ("plain ASCII stays", "plain ASCII stays"),
        ("en–dash, ‘quotes’ and ×", "en–dash, ‘quotes’ and ×"),  # no decomposition: kept
        ("Łukasz", "Łukasz"),  # a letter of its own, not a letter with a mark
    ],
)
def test_fold(text: str, folded: str) -> None:
    assert fold(text) == folded


@pytest.mark.parametrize(
    ("a", "b"),
    [("TÜLU 3", "Tulu 3"), ("Rényi", "renyi"), ("classiﬁcation", "classification"), ("Hölder", "Holder")],
)
def test_accented_and_plain_words_meet(a: str, b: str) -> None:
    assert [w.lower() for w in words(a)] == [w.lower() for w in words(b)]
    assert content_stems(a) == content_stems(b)
    assert squash(a) == squash(b)
    assert spaced_words(a) == spaced_words(b)


@given(st.text())
def test_fold_is_idempotent(text: str) -> None:
    assert fold(fold(text)) == fold(text)


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_ascii_is_unchanged(text: str) -> None:
    assert fold(text) == text


DOCS = ["We release TÜLU 3, an open post-training recipe.", "A bandit algorithm with regret bounds."]


def test_bm25_finds_an_accented_word_typed_plain(tmp_path: Path) -> None:
    index = build_bm25(DOCS, tmp_path / "b")
    scores = bm25_scores(load_bm25(tmp_path / "b", len(DOCS)), "What does Tulu 3 release?", None)
    assert scores is not None and scores[0] > 0 and scores[1] == 0
    assert index.folded


def test_an_index_written_before_folding_is_queried_as_typed_then_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "b"
    build_bm25(DOCS, path)
    meta = json.loads((path / PERSIST_FILE).read_text(encoding="utf-8"))
    del meta["folded"]
    (path / PERSIST_FILE).write_text(json.dumps(meta), encoding="utf-8")
    assert not load_bm25(path, len(DOCS)).folded
    rebuilt = _bm25([Record(f"p#{i}", t) for i, t in enumerate(DOCS)], path)
    assert rebuilt is not None and rebuilt.folded
    assert load_bm25(path, len(DOCS)).folded


ABSTRACTS = [
    "We release TÜLU 3, a family of open post-trained language models with data and recipes. "
    "TÜLU 3 outperforms instruction-tuned models of its size on reasoning benchmarks.",
    "We bound the Rényi divergence between a private mechanism's outputs. "
    "The bound is tight for the Gaussian mechanism.",
    "Graph neural networks over-smooth node features. We propose a regulariser against it.",
]
META = [
    {"paper_id": "f#1", "title": "Open Post-Training Recipes at Scale"},
    {"paper_id": "f#2", "title": "Tight Rényi Bounds for Private Mechanisms"},
    {"paper_id": "f#3", "title": "Fighting Over-Smoothing in Graph Networks"},
]


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path) -> Engine:
    return with_records(fake_engine, tmp_path / "f", "f", ABSTRACTS, META)


def test_a_whole_title_typed_without_accents_names_its_paper(engine: Engine) -> None:
    assert engine.retriever.snapshot.named_in("what do tight renyi bounds for private mechanisms show?") == {"f#2"}


@pytest.mark.parametrize(
    ("question", "paper"),
    [("What does Tulu 3 release?", "f#1"), ("Which papers bound the Renyi divergence?", "f#2")],
)
def test_an_accented_word_typed_plain_is_found(engine: Engine, question: str, paper: str) -> None:
    assert engine.retriever.retrieve(question).hits[0].paper_id == paper
    assert paper in {c.paper_id for c in engine.ask(question).citations}


@pytest.mark.parametrize(
    ("text", "name", "writes"),
    [
        ("What does Tulu 3 release?", "TÜLU 3", False),  # case-sensitive, as labels are matched
        ("What does TULU 3 release?", "TÜLU 3", True),
        ("What does TULU 30 release?", "TÜLU 3", False),
        ("Is the Rényi-DP bound tight?", "Renyi-DP", True),
        ("Is the Renyi-DPX bound tight?", "Rényi-DP", False),
        ("A ﬁne model", "fine", True),
        ("anything", "", False),
    ],
)
def test_writes_name(text: str, name: str, writes: bool) -> None:
    assert writes_name(text, name) is writes


def test_names_typed_without_accents_are_compared_and_asked_about() -> None:
    named = {"a#1": "TÜLU 3", "b#1": "GraphMix"}
    assert compared("Compare TULU 3 and GraphMix.", named) == ["a#1", "b#1"]
    assert compared("How does GraphMix differ from TULU 3?", named) == ["b#1", "a#1"]
    assert names_only("the TULU 3 paper", "TÜLU 3")
