"""Judged list precision (rag.evaluation.judgments): the file parser, the per-list scores, and
the report keys they add."""

import contextlib
import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rag.evaluation.judgments import Judgments, JudgmentsError, list_scores, load_judgments, parse_judgments
from rag.evaluation.metrics import aggregate


def _line(**row: object) -> str:
    return json.dumps(row)


@pytest.mark.parametrize(
    ("text", "grades"),
    [
        ("", {}),
        (_line(id="q1", url="u1", grade=2, why="ok") + "\n", {"q1": {"u1": 2}}),
        (_line(id="q1", url="u1", grade=0) + "\n\n" + _line(id="q1", url="u2", grade=1), {"q1": {"u1": 0, "u2": 1}}),
        (_line(id="q1", url="u1", grade=1) + "\n" + _line(id="q1", url="u1", grade=1), {"q1": {"u1": 1}}),  # agreeing
        (
            _line(id="q1", url="u1", grade=2) + "\n" + _line(id="q2", url="u1", grade=0),
            {"q1": {"u1": 2}, "q2": {"u1": 0}},
        ),
    ],
)
def test_parse_judgments(text: str, grades: dict[str, dict[str, int]]) -> None:
    assert parse_judgments(text) == grades


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "f:1: malformed JSON"),
        ("[1, 2]", "f:1: expected an object"),
        (_line(url="u", grade=1), "f:1: 'id' must be"),
        (_line(id="q", url="", grade=1), "f:1: 'url' must be"),
        (_line(id="q", url="u", grade=3), "f:1: 'grade' must be 0, 1 or 2"),
        (_line(id="q", url="u", grade=True), "f:1: 'grade' must be"),
        (_line(id="q", url="u", grade="2"), "f:1: 'grade' must be"),
        (_line(id="q", url="u", grade=2) + "\n" + _line(id="q", url="u", grade=0), "f:2: q u graded 2 and 0"),
    ],
)
def test_bad_judgments_name_their_line(text: str, message: str) -> None:
    with pytest.raises(JudgmentsError, match="^" + re.escape(message)):
        parse_judgments(text, source="f")


@given(st.text(max_size=300))
def test_the_parser_raises_only_its_own_error(text: str) -> None:
    with contextlib.suppress(JudgmentsError):
        parse_judgments(text)


def test_load_judgments_merges_files_and_reports_unreadable_ones(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_text(_line(id="q", url="u1", grade=2) + "\n", encoding="utf-8")
    b.write_text(_line(id="q", url="u2", grade=0) + "\n", encoding="utf-8")
    j = load_judgments([a, b], complete=["s1"])
    assert j.grades == {"q": {"u1": 2, "u2": 0}} and j.complete == frozenset({"s1"})
    with pytest.raises(JudgmentsError, match=r"missing\.jsonl"):
        load_judgments([tmp_path / "missing.jsonl"])


JUDGED = Judgments(
    grades={"q": {"u-good": 2, "u-loose": 1, "u-bad": 0}}, complete=frozenset({"seed-gold", "seed-other"})
)


def _cite(pid: str, url: str | None) -> dict[str, object]:
    return {"paper_id": pid, "url": url, "n": 1, "quote": "x"}


@pytest.mark.parametrize(
    ("ctype", "row", "expected"),
    [
        # gold and a graded good paper answer; a loose one counts only leniently; a seed paper
        # outside the gold set is judged by it; an ungraded corpus paper is not judged
        (
            "multi",
            {
                "citations": [
                    _cite("seed-gold", "s"),
                    _cite("c1", "u-good"),
                    _cite("c1", "u-good"),  # one paper quoted twice counts once
                    _cite("c2", "u-loose"),
                    _cite("seed-other", "s2"),
                    _cite("c3", "u-unjudged"),
                ]
            },
            {"list_judged": 4 / 5, "list_precision": 2 / 4, "list_precision_lenient": 3 / 4},
        ),
        ("multi", {"citations": [_cite("c9", None)]}, {"list_judged": 0.0}),
        # an unanswerable list question the system answered: graded like any list
        (
            "unanswerable",
            {"citations": [_cite("c1", "u-bad"), _cite("c2", "u-good")]},
            {"list_judged": 1.0, "list_precision": 0.5, "list_precision_lenient": 0.5},
        ),
        ("multi", {"refused": True, "citations": []}, {}),
        ("multi", {"error": "boom", "citations": [_cite("c1", "u-good")]}, {}),
        ("single", {"citations": [_cite("c1", "u-good")]}, {}),
    ],
)
def test_list_scores(ctype: str, row: dict[str, object], expected: dict[str, float]) -> None:
    case = {"id": "q", "type": ctype, "gold_ids": ["seed-gold"] if ctype == "multi" else []}
    assert list_scores(case, row, JUDGED) == pytest.approx(expected)


def test_list_precision_is_a_mean_over_lists() -> None:
    scores = [
        {
            "error": False,
            "unanswerable": False,
            "refused": False,
            "fabricated": 0,
            "latency_ms": 1.0,
            "list_precision": p,
        }
        for p in (1.0, 0.5)
    ]
    assert aggregate(scores)["list_precision"] == pytest.approx(0.75)


def test_a_report_with_judgments_has_list_precision_by_type() -> None:
    from rag.evaluation.evalset import EvalCase
    from rag.evaluation.report import build_report
    from rag.evaluation.report_md import report_markdown

    cases = [EvalCase(id="q", type="multi", question="Which papers do X?", gold_ids=["seed-gold", "seed-2"])]
    rows = [
        {
            "id": "q",
            "type": "multi",
            "answer": "- A: a [1]\n- B: b [2]",
            "refused": False,
            "latency_ms": 1.0,
            "citations": [_cite("seed-gold", "s"), {**_cite("c1", "u-bad"), "n": 2}],
            "sources": [{"paper_id": "seed-gold", "score": 1.0}, {"paper_id": "c1", "score": 0.5}],
        }
    ]
    abstracts = {"seed-gold": "x", "c1": "x"}
    plain = build_report(cases, rows, abstracts)
    assert "list_precision" not in plain["overall"]  # nothing judged, nothing claimed
    report = build_report(cases, rows, abstracts, judgments=JUDGED)
    assert report["overall"]["list_precision"] == 0.5 and report["overall"]["list_judged"] == 1.0
    assert report["by_type"]["multi"]["metrics"]["list_precision"] == 0.5
    assert "| list_precision |" in report_markdown(report, "t")
