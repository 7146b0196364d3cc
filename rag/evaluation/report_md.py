"""report.md: the metrics table by question type and kind, the baseline, the failures."""

from __future__ import annotations

from typing import Any

TYPES = ("single", "multi", "unanswerable", "followup")

# Metrics shown in the report table, in order, with whether higher is better.
REPORT_METRICS = [
    ("hit@1", True),
    ("recall@5", True),
    ("mrr", True),
    ("ndcg@10", True),
    ("citation_precision", True),
    ("citation_recall", True),
    ("fabricated_citations", False),
    ("fact_recall", True),
    ("answer_focus", True),
    ("answer_length", False),
    ("wrong_paper_rate", False),
    ("cited_gold_precision", True),
    ("answerable_refused", False),
    ("followup_exact_set", True),
    ("set_recall", True),
    ("set_precision", True),
    ("list_precision", True),
    ("list_precision_lenient", True),
    ("list_judged", True),
    ("followup_hit@1", True),
    ("refusal_precision", True),
    ("refusal_recall", True),
    ("refusal_f1", True),
    ("latency_p50_ms", False),
    ("latency_p95_ms", False),
    ("llm_sentences_kept", True),
    ("fallback_rate", False),
    ("first_token_p50_ms", False),
    ("errors", False),
]
# Scored by the project's own support judge: by construction for the extractive backend, and
# by the judge that released the LLM backends' sentences. Kept, but not independent evidence.
SELF_CHECKS = {"citation_precision", "citation_recall", "fabricated_citations"}
# Kinds of question (eval-set `tags`) shown in their own table.
TAG_METRICS = [
    "hit@1",
    "recall@5",
    "fact_recall",
    "answer_focus",
    "wrong_paper_rate",
    "followup_hit@1",
    "refusal_f1",
    "followup_exact_set",
]


def fmt(v: float | None, ci: tuple[float, float] | None = None, *, ms: bool = False) -> str:
    if v is None:
        return "–"
    if ms:
        return f"{v:.1f}" + (f" [{ci[0]:.1f}, {ci[1]:.1f}]" if ci else "")
    if v != int(v) or abs(v) <= 1:
        return f"{v:.3f}" + (f" [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else "")
    return f"{v:.0f}" + (f" [{ci[0]:.0f}, {ci[1]:.0f}]" if ci else "")


def report_markdown(report: dict[str, Any], title: str) -> str:
    types = [t for t in TYPES if t in report["by_type"]]
    lines = [f"# {title}", "", f"{report['n']} questions. 95% bootstrap intervals in brackets.", ""]
    if report.get("corpus"):
        c = report["corpus"]
        lines += [f"Corpus: {c['papers']} papers from {', '.join(c['files'])}.", ""]
    lines.append("| metric | overall | " + " | ".join(types) + " |")
    lines.append("|---|---|" + "---|" * len(types))
    for m, _ in REPORT_METRICS:
        overall = report["overall"].get(m)
        if overall is None and not any(m in report["by_type"][t]["metrics"] for t in types):
            continue
        ms = m.endswith("_ms")
        cells = [fmt(overall, report["ci95"].get(m), ms=ms)]
        cells += [fmt(report["by_type"][t]["metrics"].get(m), ms=ms) for t in types]
        name = f"{m} (self-check)" if m in SELF_CHECKS else m
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines += ["", "(self-check): scored by the project's own support judge, so not independent evidence."]
    lines += _tag_table(report.get("by_tag") or {})
    lines += _baseline_table(report.get("baseline"))
    lines += ["", f"## Failures ({len(report['failures'])})", ""]
    counts: dict[str, int] = {}
    for f in report["failures"]:
        counts[f["reason"]] = counts.get(f["reason"], 0) + 1
    lines += [f"- {reason}: {n}" for reason, n in sorted(counts.items(), key=lambda x: -x[1])]
    lines += [""] + [f"- `{f['id']}` ({f['type']}): {f['reason']}" for f in report["failures"]]
    return "\n".join(lines) + "\n"


def _tag_table(by_tag: dict[str, dict[str, float]]) -> list[str]:
    if not by_tag:
        return []
    lines = ["", "## By kind of question", "", "| kind | n | " + " | ".join(TAG_METRICS) + " |"]
    lines.append("|---|---|" + "---|" * len(TAG_METRICS))
    for tag, m in by_tag.items():
        lines.append(f"| {tag} | {m['n']:.0f} | " + " | ".join(fmt(m.get(k)) for k in TAG_METRICS) + " |")
    return lines


def _baseline_table(b: dict[str, Any] | None) -> list[str]:
    if not b:
        return []
    return [
        "",
        f"## Baseline (plain llama-index vector index, one vector per abstract; {b['questions']} single and "
        "follow-up questions)",
        "",
        "| metric | ours | baseline |",
        "|---|---|---|",
        f"| hit@1 | {b['hit@1']:.3f} | {b['baseline_hit@1']:.3f} |",
        f"| recall@5 | {b['recall@5']:.3f} | {b['baseline_recall@5']:.3f} |",
    ]
