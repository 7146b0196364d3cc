"""One eval runner, shared by `rag eval` and the app's Evaluate tab."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rag.evaluation.baseline import score_baseline
from rag.evaluation.evalset import EvalCase
from rag.evaluation.judgments import Judgments
from rag.evaluation.metrics import support_with
from rag.evaluation.report import run_cases, write_run
from rag.types import Answer

if TYPE_CHECKING:
    from rag.engine import Engine


def evaluate(
    engine: Engine,
    cases: list[EvalCase],
    *,
    backend: str,
    out: Path,
    title: str,
    top_k: int = 5,
    on_progress: Callable[[int, int], None] | None = None,
    progress_bar: bool | None = None,
    corpus: dict[str, Any] | None = None,
    baseline: Any = None,
    judgments: Judgments | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Ask every case through `Engine.ask` and write results.jsonl and the reports to `out`;
    with a `baseline` index, score it on the same questions. Returns the report and the rows."""
    done = 0

    def one(case: EvalCase) -> Answer:
        nonlocal done
        done += 1
        if on_progress is not None:
            on_progress(done, len(cases))
        history = [t.model_dump(exclude_none=True) for t in case.history] or None
        return engine.ask(case.question, backend=backend, history=history, top_k=top_k)

    rows = run_cases(cases, one, progress=progress_bar)
    abstracts = {pid: p.abstract for pid, p in engine.papers.items()}
    extra: dict[str, Any] = {"corpus": corpus} if corpus else {}
    if baseline is not None:
        extra["baseline"] = score_baseline(baseline, cases, rows)
    support = support_with(engine.retriever.cosine)
    report = write_run(cases, rows, abstracts, out, title, support, extra, judgments)
    return report, rows
