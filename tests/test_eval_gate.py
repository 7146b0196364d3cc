"""The quality gate: the held-out test set (eval/test.jsonl, written without dev) at both
scales, extractive backend, against the plain llama-index baseline on the same index.

Targets are the issue's. A target the system does not meet yet is gated at a floor just under
today's figure, so a regression still fails, and the missed target is reported as a warning
(and in the README) rather than hidden. Raise floors as the system improves; never lower them.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

from rag.engine import Engine
from rag.evaluation.baseline import build_baseline
from rag.evaluation.evalset import load_set
from rag.evaluation.runner import evaluate
from tests.conftest import EVAL

pytestmark = pytest.mark.slow

# metric: (target, higher is better)
TARGETS_57: dict[str, tuple[float, bool]] = {
    "hit@1": (0.97, True),
    "recall@5": (0.99, True),
    "followup_hit@1": (0.95, True),
    "wrong_paper_rate": (0.01, False),
    "fact_recall": (0.85, True),
    "answer_focus": (0.60, True),
    "answer_length": (3.0, False),
    "answerable_refused": (0.05, False),
    "refusal_f1": (0.88, True),
    "set_recall": (0.85, True),
    "followup_exact_set": (0.90, True),  # answered from exactly the papers a reference points at
    "errors": (0.0, False),
}
TARGETS_SCALE: dict[str, tuple[float, bool]] = {
    "hit@1": (0.95, True),
    "recall@5": (0.98, True),
    "followup_hit@1": (0.95, True),
    "wrong_paper_rate": (0.02, False),
    "fact_recall": (0.85, True),
    "answer_focus": (0.55, True),
    "answer_length": (3.0, False),
    "answerable_refused": (0.05, False),
    "set_recall": (0.80, True),
    "errors": (0.0, False),
}
# Not met yet: the floor the gate holds meanwhile (measured figure minus a small margin).
FLOORS_57: dict[str, float] = {}
FLOORS_SCALE: dict[str, float] = {}


def figures(report: dict[str, Any]) -> dict[str, float]:
    """The gated figures: hit@1 and recall@5 over single and follow-up questions (as the
    baseline is scored), everything else as the report gives it."""
    out = dict(report["overall"])
    out["hit@1"] = report["baseline"]["hit@1"]
    out["recall@5"] = report["baseline"]["recall@5"]
    out["followup_hit@1"] = report["by_type"]["followup"]["metrics"]["followup_hit@1"]
    return out


def check(
    got: dict[str, float], targets: dict[str, tuple[float, bool]], floors: dict[str, float]
) -> tuple[list[str], list[str]]:
    """(failures, missed targets held at a floor)."""
    failed, missed = [], []
    for metric, (target, higher) in targets.items():
        value = got.get(metric)
        if value is None:
            failed.append(f"{metric}: not measured")
            continue
        meets = value >= target if higher else value <= target
        if meets:
            continue
        floor = floors.get(metric)
        if floor is not None and (value >= floor if higher else value <= floor):
            missed.append(f"{metric} {value:.3f} (target {target}, floor {floor})")
        else:
            failed.append(f"{metric} {value:.3f} (target {target})")
    return failed, missed


def run_test_set(engine: Engine, out: Path) -> dict[str, Any]:
    index, _ = build_baseline(Path(engine.settings.home), list(engine.papers.values()), engine.embedder)
    cases = load_set(EVAL / "test.jsonl")
    report, _ = evaluate(engine, cases, backend="extractive", out=out, title="gate", baseline=index)
    return report


def assert_gate(
    report: dict[str, Any], out: Path, targets: dict[str, tuple[float, bool]], floors: dict[str, float]
) -> None:
    got = figures(report)
    failed, missed = check(got, targets, floors)
    for m in missed:
        warnings.warn(f"target not met (held at a floor): {m}", stacklevel=2)
    assert failed == [], f"{failed}\n" + (out / "report.md").read_text()


def test_check_fails_below_a_floor_and_passes_at_target() -> None:
    targets = {"fact_recall": (0.85, True), "wrong_paper_rate": (0.02, False)}
    assert check({"fact_recall": 0.9, "wrong_paper_rate": 0.0}, targets, {}) == ([], [])
    failed, missed = check({"fact_recall": 0.8, "wrong_paper_rate": 0.0}, targets, {"fact_recall": 0.78})
    assert failed == [] and missed and "fact_recall" in missed[0]
    failed, _ = check({"fact_recall": 0.7, "wrong_paper_rate": 0.05}, targets, {"fact_recall": 0.78})
    assert len(failed) == 2
    assert check({}, targets, {})[0] == ["fact_recall: not measured", "wrong_paper_rate: not measured"]


def test_gate_57_papers(real_engine: Engine, tmp_path: Path) -> None:
    report = run_test_set(real_engine, tmp_path / "run")
    b = report["baseline"]
    assert b["hit@1"] >= b["baseline_hit@1"], b
    assert_gate(report, tmp_path / "run", TARGETS_57, FLOORS_57)


def test_gate_at_scale(scale_engine: Engine, tmp_path: Path) -> None:
    report = run_test_set(scale_engine, tmp_path / "run")
    b = report["baseline"]
    assert b["hit@1"] > b["baseline_hit@1"] and b["recall@5"] >= b["baseline_recall@5"], b
    assert_gate(report, tmp_path / "run", TARGETS_SCALE, FLOORS_SCALE)


# The short questions that name their paper ("What does X compress?", "compare X and Y", "the
# paper on <title words>", "tl;dr of X", eval/short_test.jsonl, written blind to the system and
# to eval/short_dev.jsonl). Not the targets: floors just under their last measurement,
# so the kinds of question the main sets lack cannot regress. (The 15 rows on the papers'
# records brought a description two papers fit, answered from the other one: hit@1 0.986,
# wrong paper 0.017. The 37 rows on misspelt names, several named papers and papers by their
# description, 149 in all, were measured at answer focus 0.855: a description's fact is in the
# first answer sentence 10 times of 14, a misspelt name's 8 of 10. The 14 rows naming a paper
# by its authors, 146 in all, were measured at answer focus 0.839: their fact is in the first
# answer sentence 7 times of 10.)
SHORT_FLOORS: dict[str, tuple[float, bool]] = {
    "hit@1": (0.98, True),
    "wrong_paper_rate": (0.02, False),
    "fact_recall": (0.90, True),
    "answer_focus": (0.82, True),
    "answerable_refused": (0.05, False),
    "refusal_f1": (0.86, True),
    "set_recall": (0.90, True),
    "errors": (0.0, False),
}


def test_short_named_questions_57_papers(real_engine: Engine, tmp_path: Path) -> None:
    cases = load_set(EVAL / "short_test.jsonl")
    report, _ = evaluate(real_engine, cases, backend="extractive", out=tmp_path / "run", title="short")
    failed, _ = check(dict(report["overall"]), SHORT_FLOORS, {})
    assert failed == [], f"{failed}\n" + (tmp_path / "run" / "report.md").read_text()
