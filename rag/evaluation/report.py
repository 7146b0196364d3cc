"""`rag eval`: run an eval set through the `rag ask` path, score it, write reports and plots."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rag.evaluation.evalset import EvalCase
from rag.evaluation.judgments import Judgments, list_scores
from rag.evaluation.metrics import SupportFn, aggregate, bootstrap_ci, default_support, score_row
from rag.evaluation.report_md import REPORT_METRICS, TYPES, fmt, report_markdown
from rag.types import Answer

log = logging.getLogger(__name__)

AskFn = Callable[[EvalCase], Answer]


def run_cases(cases: list[EvalCase], ask: AskFn, *, progress: bool | None = None) -> list[dict[str, Any]]:
    """One row per case: the `rag ask --json` object plus id and type (and error if it failed)."""
    from tqdm import tqdm

    rows = []
    show = sys.stderr.isatty() if progress is None else progress
    for case in tqdm(cases, desc="eval", unit="q", disable=not show, file=sys.stderr):
        try:
            row: dict[str, Any] = ask(case).to_json()
        except Exception as e:  # a failing question still gets a row
            log.warning("%s failed: %s", case.id, e)
            row = {
                "question": case.question,
                "answer": "",
                "refused": False,
                "backend": "",
                "latency_ms": 0.0,
                "citations": [],
                "sources": [],
                "closest": [],
                "error": f"{type(e).__name__}: {e}",
            }
        row["id"], row["type"] = case.id, case.type
        rows.append(row)
    return rows


def build_report(
    cases: list[EvalCase],
    rows: list[dict[str, Any]],
    abstracts: dict[str, str],
    support: SupportFn | None = None,
    judgments: Judgments | None = None,
) -> dict[str, Any]:
    """`judgments`: graded papers of lists (`rag eval --judgments`), scored as list precision."""
    by_id = {c.id: c.row() for c in cases}
    scores = [score_row(by_id[r["id"]], r, abstracts, support or default_support) for r in rows]
    if judgments is not None:
        for s, r in zip(scores, rows, strict=True):
            s.update(list_scores(by_id[r["id"]], r, judgments))
    report: dict[str, Any] = {
        "n": len(rows),
        "overall": aggregate(scores),
        "ci95": bootstrap_ci(scores),
        "by_type": {},
        "failures": [
            {"id": s["id"], "type": s["type"], "reason": s["reason"]} for s in scores if s["reason"] is not None
        ],
        "questions": scores,
    }
    for t in TYPES:
        sub = [s for s in scores if s["type"] == t]
        if sub:
            report["by_type"][t] = {"metrics": aggregate(sub), "ci95": bootstrap_ci(sub, reps=400)}
    tags = sorted({t for s in scores for t in s["tags"]})
    report["by_tag"] = {t: aggregate([s for s in scores if t in s["tags"]]) for t in tags}
    return report


def write_plots(report: dict[str, Any], rows: list[dict[str, Any]], out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    paths = []
    types = [t for t in TYPES if t in report["by_type"]]
    metrics = ["hit@1", "recall@5", "citation_precision", "citation_recall", "fact_recall", "refusal_f1"]
    fig, ax = plt.subplots(figsize=(9, 4))
    width = 0.8 / max(1, len(types))
    for i, t in enumerate(types):
        vals = [report["by_type"][t]["metrics"].get(m, 0.0) for m in metrics]
        ax.bar([j + i * width for j in range(len(metrics))], vals, width, label=t)
    ax.set_xticks([j + width * (len(types) - 1) / 2 for j in range(len(metrics))], metrics, rotation=20)
    ax.set_ylim(0, 1.05)
    ax.set_title("Metrics by question type")
    ax.legend(fontsize=8)
    fig.tight_layout()
    paths.append(out / "metrics_by_type.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)

    lat = [r["latency_ms"] for r in rows if not r.get("error")]
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.hist(lat, bins=30, color="#4477aa")
    ax.set_xlabel("latency (ms)")
    ax.set_ylabel("questions")
    ax.set_title("Answer latency")
    fig.tight_layout()
    paths.append(out / "latency_hist.png")
    fig.savefig(paths[-1], dpi=110)
    plt.close(fig)
    return paths


def write_run(
    cases: list[EvalCase],
    rows: list[dict[str, Any]],
    abstracts: dict[str, str],
    out: Path,
    title: str,
    support: SupportFn | None = None,
    extra: dict[str, Any] | None = None,
    judgments: Judgments | None = None,
) -> dict[str, Any]:
    """results.jsonl, report.json, report.md and the plots; `extra` (the corpus, the baseline)
    is added to the report."""
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "results.jsonl", "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    report = build_report(cases, rows, abstracts, support, judgments)
    report.update(extra or {})
    (out / "report.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    (out / "report.md").write_text(report_markdown(report, title), encoding="utf-8")
    write_plots(report, rows, out)
    return report


def write_comparison(reports: dict[str, dict[str, Any]], out: Path) -> None:
    """Combined report and plot when several backends ran."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = list(reports)
    lines = ["# Backend comparison", "", "| metric | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for m, _ in REPORT_METRICS:
        vals = [reports[n]["overall"].get(m) for n in names]
        if any(v is not None for v in vals):
            lines.append(f"| {m} | " + " | ".join(fmt(v, ms=m.endswith("_ms")) for v in vals) + " |")
    (out / "report.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "report.json").write_text(
        json.dumps({n: r["overall"] for n, r in reports.items()}, indent=1), encoding="utf-8"
    )
    metrics = ["hit@1", "citation_precision", "citation_recall", "fact_recall", "refusal_f1"]
    fig, ax = plt.subplots(figsize=(8, 4))
    width = 0.8 / len(names)
    for i, n in enumerate(names):
        ax.bar(
            [j + i * width for j in range(len(metrics))],
            [reports[n]["overall"].get(m, 0.0) for m in metrics],
            width,
            label=n,
        )
    ax.set_xticks([j + width * (len(names) - 1) / 2 for j in range(len(metrics))], metrics, rotation=15)
    ax.set_ylim(0, 1.05)
    ax.legend()
    ax.set_title("Backends compared")
    fig.tight_layout()
    fig.savefig(out / "backends.png", dpi=110)
    plt.close(fig)


def parse_fail_under(specs: list[str]) -> dict[str, float]:
    out = {}
    for spec in specs:
        name, sep, value = spec.partition("=")
        try:
            out[name.strip()] = float(value)
        except ValueError:
            sep = ""
        if not sep:
            raise ValueError(f"--fail-under takes METRIC=VALUE, got {spec!r}")
    return out


def gate(report: dict[str, Any], thresholds: dict[str, float]) -> list[str]:
    """Metrics below their threshold (above, for fabricated citations and latencies)."""
    lower_is_better = {m for m, higher in REPORT_METRICS if not higher}
    failed = []
    for m, v in thresholds.items():
        got = report["overall"].get(m)
        if got is None:
            failed.append(f"{m}: not measured")
        elif (got > v) if m in lower_is_better else (got < v):
            failed.append(f"{m}: {got:.3f} (threshold {v})")
    return failed


def diff_runs(a: Path, b: Path) -> str:
    """Metric deltas between two runs and the questions that flipped pass/fail."""
    ra = json.loads((a / "report.json").read_text(encoding="utf-8"))
    rb = json.loads((b / "report.json").read_text(encoding="utf-8"))
    lines = [f"| metric | {a.name} | {b.name} | delta |", "|---|---|---|---|"]
    for m, _ in REPORT_METRICS:
        va, vb = ra["overall"].get(m), rb["overall"].get(m)
        if va is None and vb is None:
            continue
        delta = f"{vb - va:+.3f}" if va is not None and vb is not None else "–"
        lines.append(f"| {m} | {fmt(va)} | {fmt(vb)} | {delta} |")
    fa = {q["id"]: q["reason"] for q in ra["questions"]}
    fb = {q["id"]: q["reason"] for q in rb["questions"]}
    flipped = [(qid, fa[qid], fb[qid]) for qid in fa if qid in fb and (fa[qid] is None) != (fb[qid] is None)]
    lines += ["", f"{len(flipped)} question(s) flipped:"]
    for qid, was, now in flipped:
        lines.append(f"- {qid}: {'pass' if was is None else was} -> {'pass' if now is None else now}")
    return "\n".join(lines)
