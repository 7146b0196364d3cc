"""The app's handlers are plain functions: tested directly with the fake-embedder engine."""

from __future__ import annotations

from pathlib import Path

import pytest

import ui.handlers as app
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
    history, sources, box, answers = updates[-1]
    assert answers[-1]["citations"][0]["paper_id"] == "small#2"
    assert box == "" and history[-2]["content"] == "How many novel folds does FoldNet design?"
    assert "[1]" in history[-1]["content"] and "120" in history[-1]["content"]
    assert "<mark>" in sources and "FoldNet" in sources and "small#2" in sources


def test_refusal_shows_closest_papers(engine: Engine) -> None:
    *_, (history, sources, _, _) = app.respond("What learning rate does TinyQuant use?", [], "extractive", 5)
    assert "do not contain" in history[-1]["content"] and "Closest papers" in sources


def test_corpus_html_is_escaped(engine: Engine) -> None:
    *_, (history, sources, _, _) = app.respond("How many layers does EvilNet use?", [], "extractive", 5)
    assert "<script>" not in sources and "&lt;script&gt;" in sources
    assert "<script>" not in history[-1]["content"] and "<b>" not in history[-1]["content"]


def test_empty_question_does_nothing(engine: Engine) -> None:
    assert list(app.respond("   ", [], "extractive", 5)) == [([], "", "", [])]


def test_filters_copy_feedback_papers(engine: Engine, tmp_path: Path) -> None:
    *_, (history, _, _, answers) = app.respond(
        "How many novel folds does FoldNet design?", [], "extractive", 5, ["file:x"]
    )
    assert all(c["paper_id"].startswith("x#") for c in answers[-1]["citations"])
    *_, (history, _, _, answers) = app.respond("How many novel folds does FoldNet design?", [], "extractive", 5)
    md = app.copy_answer(answers)
    assert md.startswith(answers[-1]["answer"]) and "References:" in md and "`small#2`" in md
    msg = app.record_feedback(history, answers, 1, "wrong paper")
    drafts = [__import__("json").loads(x) for x in (tmp_path / "home" / "feedback.jsonl").read_text().splitlines()]
    assert "saved" in msg and drafts[-1]["needs_review"] and drafts[-1]["comment"] == "wrong paper"
    assert drafts[-1]["gold_ids"] == [] and drafts[-1]["question"].startswith("How many")
    assert "file:small" in app.filter_choices()
    rows = app.papers_table("protein")
    assert [r[0] for r in rows] == ["small#2"] and "FoldNet" in app.paper_view("small#2")
    assert "&lt;script&gt;" in app.paper_view("x#1")


def test_upload_good_and_bad_files(engine: Engine, tmp_path: Path) -> None:
    good = write_corpus(tmp_path / "up", "mine", ["We propose ZetaNet, a model for zebras. ZetaNet is fast."])
    assert "1 added" in app.upload(str(good))
    assert any(r[0] == "mine#1" for r in app.papers_table("zebras"))
    bad = tmp_path / "up" / "bad.txt"
    bad.write_text("only a header\n")
    assert app.upload(str(bad)).startswith("Not ingested: bad.txt: no abstracts")
    assert "only .txt" in app.upload(str(tmp_path / "x.pdf"))


def test_evaluate_tab_handler(engine: Engine) -> None:
    assert "eval/test.jsonl" in app.eval_sets()
    table, plots, rows = app.run_eval("eval/test.jsonl", "extractive", 4)
    assert "| hit@1 |" in table and all(Path(p).exists() for p in plots)
    assert len(rows) == 4 and {r[2] for r in rows} <= {
        "pass",
        "gold not retrieved",
        "retrieved but not cited",
        "fact missing",
        "wrongly refused",
        "not refused",
        "error",
    }
    failed = app.only_failures(rows, True)
    assert all(r[2] != "pass" for r in failed) and app.only_failures(rows, False) == rows
