"""The app's handlers are plain functions: tested directly with the fake-embedder engine."""

from __future__ import annotations

from pathlib import Path

import pytest

import ui.chat as ui_chat
import ui.evaluate as ui_evaluate
import ui.papers as ui_papers
import ui.render as ui_render
import ui.state as ui_state
from rag.engine import Engine
from rag.types import Answer
from tests.conftest import write_corpus


@pytest.fixture
def engine(fake_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    evil = "We propose EvilNet <script>window.__pwned=1</script>, a model. EvilNet uses <b>bold</b> 7 layers."
    fake_engine.ingest([tmp_path / "corpus", write_corpus(tmp_path / "x", "x", [evil])])
    monkeypatch.setattr(ui_state, "_engine", fake_engine)
    return fake_engine


def test_respond_streams_then_shows_highlighted_sources(engine: Engine) -> None:
    updates = list(ui_chat.respond("How many novel folds does FoldNet design?", [], "extractive", 5))
    assert updates[0][0][-1]["content"] == "…"  # placeholder while the answer is written
    history, sources, box, answers = updates[-1]
    assert answers[-1]["citations"][0]["paper_id"] == "small#2"
    assert box == "" and history[-2]["content"] == "How many novel folds does FoldNet design?"
    assert "[1]" in history[-1]["content"] and "120" in history[-1]["content"]
    assert "<mark>" in sources and "FoldNet" in sources and "small#2" in sources


def test_refusal_shows_closest_papers(engine: Engine) -> None:
    *_, (history, sources, _, _) = ui_chat.respond("What learning rate does TinyQuant use?", [], "extractive", 5)
    assert "do not contain" in history[-1]["content"] and "Closest papers" in sources


def test_corpus_html_is_escaped(engine: Engine) -> None:
    *_, (history, sources, _, _) = ui_chat.respond("How many layers does EvilNet use?", [], "extractive", 5)
    assert "<script>" not in sources and "&lt;script&gt;" in sources
    assert "<script>" not in history[-1]["content"] and "<b>" not in history[-1]["content"]


def test_empty_question_does_nothing(engine: Engine) -> None:
    assert list(ui_chat.respond("   ", [], "extractive", 5)) == [([], "", "", [])]


def test_filters_copy_feedback_papers(engine: Engine, tmp_path: Path) -> None:
    *_, (history, _, _, answers) = ui_chat.respond(
        "How many novel folds does FoldNet design?", [], "extractive", 5, ["file:x"]
    )
    assert all(c["paper_id"].startswith("x#") for c in answers[-1]["citations"])
    *_, (history, _, _, answers) = ui_chat.respond("How many novel folds does FoldNet design?", [], "extractive", 5)
    md = ui_chat.copy_answer(answers)
    assert md.startswith(answers[-1]["answer"]) and "References:" in md and "`small#2`" in md
    msg = ui_chat.record_feedback(history, answers, 1, "wrong paper")
    drafts = [__import__("json").loads(x) for x in (tmp_path / "home" / "feedback.jsonl").read_text().splitlines()]
    assert "saved" in msg and drafts[-1]["needs_review"] and drafts[-1]["comment"] == "wrong paper"
    assert drafts[-1]["gold_ids"] == [] and drafts[-1]["question"].startswith("How many")
    assert "file:small" in ui_chat.filter_choices()
    rows = ui_papers.papers_table("protein")
    assert [r[0] for r in rows] == ["small#2"] and "FoldNet" in ui_papers.paper_view("small#2")
    assert "&lt;script&gt;" in ui_papers.paper_view("x#1")


def test_upload_good_and_bad_files(engine: Engine, tmp_path: Path) -> None:
    good = write_corpus(tmp_path / "up", "mine", ["We propose ZetaNet, a model for zebras. ZetaNet is fast."])
    assert "1 added" in ui_papers.upload(str(good))
    assert any(r[0] == "mine#1" for r in ui_papers.papers_table("zebras"))
    bad = tmp_path / "up" / "bad.txt"
    bad.write_text("only a header\n")
    assert ui_papers.upload(str(bad)).startswith("Not ingested: bad.txt: no abstracts")
    assert "only .txt" in ui_papers.upload(str(tmp_path / "x.pdf"))


def test_evaluate_tab_handler(engine: Engine) -> None:
    assert "eval/test.jsonl" in ui_evaluate.eval_sets()
    table, plots, rows = ui_evaluate.run_eval("eval/test.jsonl", "extractive", 4)
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
    failed = ui_evaluate.only_failures(rows, True)
    assert all(r[2] != "pass" for r in failed) and ui_evaluate.only_failures(rows, False) == rows


def _two_paper_answer() -> Answer:
    from rag.types import Citation, SentenceCheck

    cites = [
        Citation(
            n=1,
            paper_id="a#1",
            label="FoldNet",
            title="FoldNet: Folds",
            quote="It designs $120$ folds.",
            display="It designs 120 folds.",
        ),
        Citation(
            n=2,
            paper_id="b#1",
            label="x <b>",
            title="T & <i>",
            quote="Uses *deep* nets [7].",
            display="Uses deep nets (7).",
        ),
    ]
    sentences = [
        SentenceCheck(text="It designs $120$ folds.", citations=[1], supported=True),
        SentenceCheck(text="Uses *deep* nets (7).", citations=[2], supported=True),
        SentenceCheck(text="Dropped.", citations=[], supported=False),
    ]
    return Answer(
        question="q",
        answer="- FoldNet: It designs $120$ folds. [1]\n- x <b>: Uses *deep* nets (7). [2]",
        refused=False,
        backend="extractive",
        latency_ms=0.0,
        citations=cites,
        sentences=sentences,
    )


def test_multi_paper_answer_is_a_list_with_bold_labels_and_cite_spans() -> None:
    from ui.layout import answer_html

    html = answer_html(_two_paper_answer(), "(Note: n)")
    assert html.startswith("<ul><li><b>FoldNet</b>: It designs 120 folds. <span class='cite' title='FoldNet: Folds")
    assert "<li><b>x &lt;b&gt;</b>: Uses <i>deep</i> nets (7). <span class='cite' title='T &amp; &lt;i&gt; — " in html
    assert "Dropped" not in html and html.endswith("<p>(Note: n)</p>") and "$" not in html
    assert ui_render.message_text(html).splitlines()[:2] == [
        "- FoldNet: It designs 120 folds. [1]",
        "- x <b>: Uses deep nets (7). [2]",
    ]


def test_one_paper_answer_is_a_paragraph() -> None:
    from ui.layout import answer_html

    a = _two_paper_answer()
    a.sentences = a.sentences[:1]
    html = answer_html(a)
    assert html.startswith("<p>It designs 120 folds. <span class='cite'") and "<ul>" not in html and "<b>" not in html


def test_turns_record_paper_ids_deduplicated_in_citation_order() -> None:
    answers = [{"citations": [{"n": 2, "paper_id": "b"}, {"n": 1, "paper_id": "a"}, {"n": 1, "paper_id": "a"}]}]
    turns = ui_chat._turns([{"role": "user", "content": "q"}, {"role": "assistant", "content": "<p>x</p>"}], answers)
    assert turns[1] == {"role": "assistant", "content": "x", "paper_ids": ["a", "b"]}


def test_papers_table_authors_and_bibtex(engine: Engine) -> None:
    *_, (_, _, _, answers) = ui_chat.respond("How many novel folds does FoldNet design?", [], "extractive", 5)
    assert ui_papers.papers_table("small#2")[0][0] == "small#2" and len(ui_papers.papers_table("")[0]) == 5
    # a bare text file has no title, authors or venue: the entry holds nothing invented
    assert ui_papers.cited_bibtex(answers) == "@misc{small2\n}\n"
    assert ui_papers.cited_bibtex([]) == ""


def test_question_during_warm_up_waits_and_says_so(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    import ui.chat as chat_mod

    gate = threading.Event()
    monkeypatch.setattr(ui_state, "_warm_done", threading.Event())
    monkeypatch.setattr(ui_state, "_warm_thread", threading.Thread(target=gate.wait))
    steps = chat_mod.respond("Which paper generates protein backbones?", [])
    first = next(steps)
    assert first[0][-1]["content"] == chat_mod.WARMING and ui_state.warming()
    done: list[object] = []
    reader = threading.Thread(target=lambda: done.append(list(steps)))
    reader.start()
    reader.join(0.5)
    assert not done  # still waiting for the warm-up
    ui_state._warm_done.set()
    reader.join(30)
    final = done[0][-1]  # type: ignore[index]
    assert "FoldNet" in final[1] and not ui_state.warming()


def test_a_long_list_shows_its_first_sources_open_and_folds_the_rest(engine: Engine) -> None:
    from rag.answer.cite import CitationBuilder

    papers = list(engine.papers.values())
    assert len(papers) > ui_render.SOURCES_OPEN
    builder = CitationBuilder()
    for p in papers:
        builder.cite(p, p.abstract.split(". ")[0])
    a = Answer(
        question="Which papers …?",
        answer="…",
        refused=False,
        backend="extractive",
        latency_ms=0.0,
        citations=builder.citations,
    )
    html = ui_render.sources_html(a, engine)
    assert html.count("<details open class='source'") == ui_render.SOURCES_OPEN
    assert html.count("<details class='source'") == len(papers) - ui_render.SOURCES_OPEN
    assert "id='source-1'" in html.split("<details class='source'")[0]  # the first ones are the open ones
