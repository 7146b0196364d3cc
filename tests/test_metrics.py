"""Metric functions on small hand-made tables: perfect = 1, empty = 0, partial = exact values."""

import math

import pytest

from rag.evaluation.metrics import (
    aggregate,
    answer_sentences,
    bootstrap_ci,
    citation_scores,
    fact_found,
    hit_at_1,
    is_fabricated,
    mrr,
    ndcg_at_k,
    recall_at_k,
    refusal_prf,
    score_row,
)

ABSTRACTS = {
    "a#1": "We propose **FooNet**, a model. FooNet reaches 6,658 points on the Bar benchmark.",
    "a#2": "We study sparse rewards. Curiosity solves 12 of 15 games.",
    "a#3": "An unrelated abstract about fairness in lending.",
}


def row(answer: str, cites: list[tuple[int, str, str]], sources: list[str], refused: bool = False) -> dict:
    return {
        "answer": answer,
        "refused": refused,
        "latency_ms": 10.0,
        "citations": [{"n": n, "paper_id": p, "label": p, "title": None, "quote": q} for n, p, q in cites],
        "sources": [{"paper_id": s, "score": 1.0} for s in sources],
    }


@pytest.mark.parametrize(
    ("ranked", "gold", "h1", "r5", "rr", "ndcg"),
    [
        (["a", "b", "c"], ["a"], 1.0, 1.0, 1.0, 1.0),
        ([], ["a"], 0.0, 0.0, 0.0, 0.0),
        (["b", "a"], ["a"], 0.0, 1.0, 0.5, 1 / math.log2(3)),
        (
            ["b", "c", "d", "e", "f", "a"],
            ["a", "c"],
            0.0,
            0.5,
            0.5,
            (1 / math.log2(3) + 1 / math.log2(7)) / (1 + 1 / math.log2(3)),
        ),
    ],
)
def test_retrieval_metrics(ranked, gold, h1, r5, rr, ndcg) -> None:  # type: ignore[no-untyped-def]
    assert hit_at_1(ranked, gold) == h1
    assert recall_at_k(ranked, gold, 5) == r5
    assert mrr(ranked, gold) == rr
    assert ndcg_at_k(ranked, gold, 10) == pytest.approx(ndcg)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("One claim. [1]", [("One claim.", [1])]),
        ("First. [1] Second [2][3]", [("First.", [1]), ("Second", [2, 3])]),
        ("- FooNet: It works. [1]\n- Bar: Also. [2]", [("It works.", [1]), ("Also.", [2])]),
        ("No citation at all.", [("No citation at all.", [])]),
        ("", []),
    ],
)
def test_answer_sentences(answer: str, expected: list) -> None:  # type: ignore[type-arg]
    assert answer_sentences(answer) == expected


@pytest.mark.parametrize(
    ("fact", "answer", "found"),
    [
        ("6,658", "reaches 6658 points", True),
        ("6658", "reaches 6,658 points", True),
        ("FooNet", "**FooNet** is", True),
        ("1.78", "a 1.78$\\times$ speed-up", True),
        ("12 of 15", "12 of 16", False),
        # an answer writes a source's own "[2017]" as "(2017)": its markers are "[n]"
        ("Xu and Raginsky [2017]", "bounds from Xu and Raginsky (2017) [1]", True),
        ("Xu and Raginsky [2017]", "bounds from Xu and Raginsky (2018) [1]", False),
    ],
)
def test_fact_matching(fact: str, answer: str, found: bool) -> None:
    assert fact_found(fact, answer) is found


def test_fabricated() -> None:
    src = {"a#1"}
    assert not is_fabricated({"paper_id": "a#1", "quote": "We propose FooNet, a model."}, src, ABSTRACTS)
    assert is_fabricated({"paper_id": "a#2", "quote": "We study sparse rewards."}, src, ABSTRACTS)  # not a source
    assert is_fabricated({"paper_id": "a#1", "quote": "FooNet is the best."}, src, ABSTRACTS)  # not verbatim


def test_citation_scores_perfect_partial_and_empty() -> None:
    q1 = "FooNet reaches 6,658 points on the Bar benchmark."
    perfect = row(f"{q1} [1]", [(1, "a#1", q1)], ["a#1", "a#2"])
    assert citation_scores(perfect, ["a#1"], ABSTRACTS) == (1.0, 1.0, 0)
    # Second sentence cites a real quote of a non-gold paper that does not support it.
    q2 = "Curiosity solves 12 of 15 games."
    partial = row(f"{q1} [1] FooNet is great at Bar. [2]", [(1, "a#1", q1), (2, "a#2", q2)], ["a#1", "a#2"])
    assert citation_scores(partial, ["a#1"], ABSTRACTS) == (0.5, 0.5, 0)
    # A fabricated quote counts as fabricated and supports nothing.
    fab = row("FooNet wins. [1]", [(1, "a#1", "FooNet wins everything.")], ["a#1"])
    assert citation_scores(fab, ["a#1"], ABSTRACTS) == (0.0, 0.0, 1)
    assert citation_scores(row("x", [], [], refused=True), ["a#1"], ABSTRACTS) == (None, None, 0)


def test_refusal_prf() -> None:
    assert refusal_prf([True, False], [True, False]) == (1.0, 1.0, 1.0)
    assert refusal_prf([True, True, False, False], [True, False, True, False]) == (0.5, 0.5, 0.5)
    assert refusal_prf([], []) == (0.0, 0.0, 0.0)


def _cases_rows(perfect: bool):  # type: ignore[no-untyped-def]
    q1 = "FooNet reaches 6,658 points on the Bar benchmark."
    cases = [
        {"id": "s", "type": "single", "gold_ids": ["a#1"], "answer_facts": ["6,658"]},
        {"id": "u", "type": "unanswerable", "gold_ids": [], "answer_facts": []},
        {"id": "m", "type": "multi", "gold_ids": ["a#1", "a#2"], "answer_facts": ["FooNet", "12 of 15"]},
    ]
    if perfect:
        q2 = "Curiosity solves 12 of 15 games."
        rows = [
            row(f"{q1} [1]", [(1, "a#1", q1)], ["a#1", "a#2", "a#3"]),
            row("Not in the abstracts.", [], ["a#3"], refused=True),
            row(f"- FooNet: {q1} [1]\n- C: {q2} [2]", [(1, "a#1", q1), (2, "a#2", q2)], ["a#1", "a#2", "a#3"]),
        ]
    else:
        rows = [row("", [], [])] * 3
    return cases, rows


def test_perfect_run_scores_one_and_empty_run_zero() -> None:
    for perfect, expect in ((True, 1.0), (False, 0.0)):
        cases, rows = _cases_rows(perfect)
        scores = [score_row(c, r, ABSTRACTS) for c, r in zip(cases, rows, strict=True)]
        agg = aggregate(scores)
        for m in ("hit@1", "recall@5", "mrr", "ndcg@10", "fact_recall", "set_recall", "refusal_f1"):
            assert agg[m] == expect, (m, perfect)
        assert agg["fabricated_citations"] == 0
        if perfect:
            assert agg["citation_precision"] == agg["citation_recall"] == 1.0
            assert all(s["reason"] is None for s in scores)
        else:
            assert [s["reason"] for s in scores] == ["gold not retrieved", "not refused", "gold not retrieved"]


def test_failure_reasons_and_bootstrap() -> None:
    q1 = "FooNet reaches 6,658 points on the Bar benchmark."
    case = {"id": "s", "type": "single", "gold_ids": ["a#1"], "answer_facts": ["6,658", "Baz"]}
    refused = score_row(case, row("No.", [], ["a#1"], refused=True), ABSTRACTS)
    uncited = score_row(case, row("x [1]", [(1, "a#2", "We study sparse rewards.")], ["a#1", "a#2"]), ABSTRACTS)
    missing = score_row(case, row(f"{q1} [1]", [(1, "a#1", q1)], ["a#1"]), ABSTRACTS)
    assert (refused["reason"], uncited["reason"], missing["reason"]) == (
        "wrongly refused",
        "retrieved but not cited",
        "fact missing",
    )
    assert missing["fact_recall"] == 0.5
    ci = bootstrap_ci([refused, uncited, missing], reps=200, seed=1)
    assert ci == bootstrap_ci([refused, uncited, missing], reps=200, seed=1)  # seeded
    lo, hi = ci["fact_recall"]
    assert 0.0 <= lo <= 1 / 6 <= hi <= 0.5


def test_run_cases_keeps_a_row_for_errors_and_comparison_report(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from rag.evaluation.evalset import EvalCase
    from rag.evaluation.report import build_report, run_cases, write_comparison
    from rag.types import Answer

    cases = [
        EvalCase(id="ok", type="single", question="q?", gold_ids=["a#1"], answer_facts=["FooNet"]),
        EvalCase(id="boom", type="unanswerable", question="q2?"),
    ]

    def ask(case):  # type: ignore[no-untyped-def]
        if case.id == "boom":
            raise RuntimeError("backend died")
        q = "We propose **FooNet**, a model."
        return Answer(
            question=case.question,
            answer="We propose FooNet, a model. [1]",
            refused=False,
            backend="extractive",
            latency_ms=5.0,
            citations=[{"n": 1, "paper_id": "a#1", "label": "FooNet", "quote": q}],
            sources=[{"paper_id": "a#1", "score": 1.0}],
        )

    rows = run_cases(cases, ask, progress=False)
    assert rows[1]["error"] == "RuntimeError: backend died" and rows[1]["id"] == "boom"
    report = build_report(cases, rows, ABSTRACTS)
    assert report["overall"]["hit@1"] == 1.0 and report["overall"]["errors"] == 1.0
    assert {f["id"]: f["reason"] for f in report["failures"]} == {"boom": "error"}
    write_comparison({"extractive": report, "other": report}, tmp_path)
    assert "| hit@1 | 1.000 | 1.000 |" in (tmp_path / "report.md").read_text()
    assert (tmp_path / "backends.png").exists()
