"""The support judge on eval/verifier's held-out pairs with the real embedding model (slow).

Both halves: the figures of this version are the floor. The issue's targets hold on the
calibration half (tuned on) and not on the report half (never tuned on), where they are a
strict xfail, so the day they hold this test says so."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rag.corpus.reader import corpus_files, read_corpus_file
from rag.engine import Engine
from rag.evaluation.judge_eval import TARGETS, load_pairs, run, tables
from rag.settings import PROJECT_ROOT, Settings

PAIRS = PROJECT_ROOT / "eval" / "verifier"
# This version (v29) on pairs_calibration.jsonl: faithful 959/1026, unfaithful 87/1026, worst type 31/209 (direction).
CALIBRATION_FLOOR = {"faithful_accepted_min": 0.93, "unfaithful_accepted_max": 0.10, "per_type_max": 0.15}
# This version on pairs_report.jsonl: faithful 549/649, unfaithful 148/649, worst type 55/134 (name). Round 9's
# report part was harder than the half (v27 before any change: faithful 61/75), so the faithful floor is 0.83.
REPORT_FLOOR = {"faithful_accepted_min": 0.83, "unfaithful_accepted_max": 0.24, "per_type_max": 0.45}

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def halves(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    engine = Engine(Settings(home=tmp_path_factory.mktemp("judge-home")))
    roots = [PROJECT_ROOT / "data", PROJECT_ROOT / "eval" / "corpora"]
    labels = {p.paper_id: p.label for f in corpus_files(roots) for p in read_corpus_file(f)}
    return {
        half: tables(run(load_pairs(PAIRS / f"pairs_{half}.jsonl"), engine.retriever.cosine, labels))
        for half in ("calibration", "report")
    }


def check(t: dict[str, Any], limits: dict[str, float]) -> list[str]:
    bad = []
    if t["faithful"]["rate"] < limits["faithful_accepted_min"]:
        bad.append(f"faithful accepted {t['faithful']['rate']}")
    if t["unfaithful"]["rate"] > limits["unfaithful_accepted_max"]:
        bad.append(f"unfaithful accepted {t['unfaithful']['rate']}")
    bad += [f"{e} accepted {r['rate']}" for e, r in t["by_type"].items() if r["rate"] > limits["per_type_max"]]
    return bad


def test_calibration_half_no_worse_than_this_version(halves: dict[str, dict[str, Any]]) -> None:
    assert check(halves["calibration"], CALIBRATION_FLOOR) == []


def test_calibration_half_meets_targets(halves: dict[str, dict[str, Any]]) -> None:
    assert check(halves["calibration"], TARGETS) == []


def test_report_half_no_worse_than_this_version(halves: dict[str, dict[str, Any]]) -> None:
    assert check(halves["report"], REPORT_FLOOR) == []


@pytest.mark.xfail(strict=True, reason="issue 15 targets on the report half are not met yet (see REPORT_FLOOR)")
def test_report_half_meets_issue_targets(halves: dict[str, dict[str, Any]]) -> None:
    assert check(halves["report"], TARGETS) == []


def test_rag_verify_real_index(real_engine: Engine, tmp_path: Path) -> None:
    pid = next(p.paper_id for p in real_engine.papers.values() if p.label == "GENIE")
    good = '{"claim": "GENIE keeps a small subset of parameters from dominating optimization.", "paper_id": "%s"}'
    bad = '{"claim": "GENIE lets a small subset of parameters dominate optimization.", "paper_id": "%s"}'
    stdin = "\n".join([good % pid, "oops", bad % pid]) + "\n"
    env = {"RAG_HOME": str(real_engine.settings.home), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    r = subprocess.run(
        [sys.executable, "-m", "rag.cli", "verify", "-", "--json"],
        input=stdin, capture_output=True, text=True, env=env, cwd=PROJECT_ROOT, timeout=300,
    )  # fmt: skip
    assert r.returncode == 1 and r.stderr.strip().startswith("line 2: not JSON")
    out = [line for line in r.stdout.splitlines() if line.strip()]
    assert len(out) == 3 and '"supported": true' in out[0] and '"supported": false' in out[1]
    assert '"opposite predicate: prevents/lets"' in out[1] or "opposite predicate" in out[1]
    assert '"checked": 2' in out[2] and '"errors": 1' in out[2]
