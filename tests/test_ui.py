"""The app's handlers are plain functions: tested directly with the fake-embedder engine."""

from __future__ import annotations

from pathlib import Path

import pytest

import ui.app as app
from rag.engine import Engine
from tests.conftest import write_corpus


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    evil = "We propose EvilNet <script>window.__pwned=1</script>, a model. EvilNet uses <b>bold</b> 7 layers."
    fake_engine.ingest([tmp_path / "corpus", write_corpus(tmp_path / "x", "x", [evil])])
    monkeypatch.setattr(app, "_engine", fake_engine)
    return fake_engine


def test_respond_streams_then_shows_highlighted_sources(engine: Engine) -> None:
    updates = list(app.respond("How many novel folds does FoldNet design?", [], "extractive", 5))
    assert updates[0][0][-1]["content"] == "…"  # placeholder while the answer is written
    history, sources, box = updates[-1]
    assert box == "" and history[-2]["content"] == "How many novel folds does FoldNet design?"
    assert "[1]" in history[-1]["content"] and "120" in history[-1]["content"]
    assert "<mark>" in sources and "FoldNet" in sources and "small#2" in sources


def test_refusal_shows_closest_papers(engine: Engine) -> None:
    *_, (history, sources, _) = app.respond("What learning rate does TinyQuant use?", [], "extractive", 5)
    assert "do not contain" in history[-1]["content"] and "Closest papers" in sources


def test_corpus_html_is_escaped(engine: Engine) -> None:
    *_, (history, sources, _) = app.respond("How many layers does EvilNet use?", [], "extractive", 5)
    assert "<script>" not in sources and "&lt;script&gt;" in sources
    assert "<script>" not in history[-1]["content"] and "<b>" not in history[-1]["content"]


def test_empty_question_does_nothing(engine: Engine) -> None:
    assert list(app.respond("   ", [], "extractive", 5)) == [([], "", "")]
