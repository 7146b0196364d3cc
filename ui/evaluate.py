"""The Evaluate tab's handlers: run an eval set as `rag eval` does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rag.settings import PROJECT_ROOT
from ui.state import get_engine


def eval_sets() -> list[str]:
    return sorted(str(p.relative_to(PROJECT_ROOT)) for p in (PROJECT_ROOT / "eval").glob("*.jsonl"))


def run_eval(
    set_path: str, backend: str, limit: int = 0, progress: Any = None
) -> tuple[str, list[str], list[list[Any]]]:
    """Run an eval set as `rag eval` does; returns the report table, plot paths and per-question rows."""
    from rag.evaluation.evalset import load_set
    from rag.evaluation.runner import evaluate

    engine = get_engine()
    cases = load_set(PROJECT_ROOT / set_path)
    if limit:
        cases = cases[: int(limit)]
    engine.llm(backend)

    def on_progress(done: int, total: int) -> None:
        if progress is not None:
            progress(done / total, desc=f"{done}/{total}")

    out = Path(engine.settings.home) / "eval-runs" / f"{Path(set_path).stem}-{backend}"
    title = f"{set_path} ({backend})"
    report, rows = evaluate(
        engine, cases, backend=backend, out=out, title=title, on_progress=on_progress, progress_bar=False
    )
    table = (out / "report.md").read_text(encoding="utf-8").split("## Failures")[0]
    reasons = {q["id"]: q["reason"] for q in report["questions"]}
    per_q = [[r["id"], r["type"], reasons.get(r["id"]) or "pass", r["question"], r["answer"][:200]] for r in rows]
    return table, [str(out / "metrics_by_type.png"), str(out / "latency_hist.png")], per_q


def only_failures(rows: list[list[Any]], failures_only: bool) -> list[list[Any]]:
    return [r for r in rows or [] if not failures_only or r[2] != "pass"]
