"""`rag eval` end to end with the real model (the quality gate is tests/test_eval_gate.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rag.engine import Engine
from tests.conftest import EVAL

pytestmark = pytest.mark.slow


def rag(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rag.cli", *args], env=env, capture_output=True, text=True, timeout=600
    )


def test_eval_cli_outputs_check_and_diff(real_engine: Engine, tmp_path: Path) -> None:
    env = dict(os.environ, RAG_HOME=str(real_engine.settings.home))
    bad = tmp_path / "judgments.jsonl"
    bad.write_text('{"id": "q", "url": "u", "grade": 2}\n{"id": "q", "url": "u", "grade": 7}\n', encoding="utf-8")
    r = rag("eval", "--set", str(EVAL / "test.jsonl"), "--judgments", str(bad), env=env)
    assert r.returncode == 2 and f"{bad}:2: 'grade' must be 0, 1 or 2" in r.stderr, r.stderr

    r = rag("eval", "--check", str(EVAL / "dev.jsonl"), env=env)
    assert r.returncode == 0 and "0 problem(s)" in r.stdout and "longest shared word n-gram" in r.stdout

    out = tmp_path / "a"
    r = rag(
        "eval",
        "--set",
        str(EVAL / "test.jsonl"),
        "--limit",
        "8",
        "--out",
        str(out),
        "--fail-under",
        "hit@1=1.01",
        env=env,
    )
    assert r.returncode == 1 and "below threshold: extractive: hit@1" in r.stderr, r.stderr
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(rows) == 8
    for row in rows:
        assert {
            "question",
            "answer",
            "refused",
            "backend",
            "latency_ms",
            "citations",
            "sources",
            "closest",
            "id",
            "type",
        } <= set(row)
    report = json.loads((out / "report.json").read_text())
    assert report["n"] == 8 and "hit@1" in report["overall"] and "hit@1" in report["ci95"]
    assert (out / "metrics_by_type.png").stat().st_size > 1000 and (out / "latency_hist.png").exists()
    assert "| hit@1 |" in (out / "report.md").read_text()

    # A second run differing in size; --diff reports deltas and flips.
    out_b = tmp_path / "b"
    assert rag("eval", "--set", str(EVAL / "test.jsonl"), "--limit", "4", "--out", str(out_b), env=env).returncode == 0
    r = rag("eval", "--diff", str(out), str(out_b), env=env)
    assert r.returncode == 0 and "| hit@1 |" in r.stdout and "flipped" in r.stdout
