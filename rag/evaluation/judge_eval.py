"""The support judge on the claim/evidence pair sets of eval/verifier: confusion tables by
error type and by source, and the hardest pairs (`rag verify --pairs FILE`)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rag.answer.judge import judge
from rag.text.normalize import clean

CosineFn = Callable[[str, str], float]
TARGETS = {"faithful_accepted_min": 0.90, "unfaithful_accepted_max": 0.10, "per_type_max": 0.15}


def load_pairs(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def run(pairs: list[dict[str, Any]], cosine: CosineFn | None, labels: dict[str, str]) -> list[dict[str, Any]]:
    """Each pair with the judge's decision: `accepted`, `reason`, `cosine`."""
    out = []
    for p in pairs:
        ev = clean(p["evidence"])
        cos = cosine(p["claim"], ev) if cosine else None
        j = judge(p["claim"], ev, cosine=cos, similar=cosine, label=labels.get(p["paper_id"]))
        out.append({**p, "accepted": j.supported, "reason": j.reason, "cosine": cos})
    return out


def _rate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    n = len(rows)
    k = sum(r["accepted"] for r in rows)
    return {"accepted": k, "n": n, "rate": round(k / n, 3) if n else None}


def tables(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Acceptance rates: faithful/unfaithful overall, unfaithful by error type, both by source,
    the reasons of the judge's mistakes, and whether the issue's targets hold."""
    faithful = [r for r in rows if r["label"] == "faithful"]
    unfaithful = [r for r in rows if r["label"] == "unfaithful"]
    types = sorted({r["error_type"] for r in unfaithful})
    sources = sorted({r["source"] for r in rows})
    t: dict[str, Any] = {
        "faithful": _rate(faithful),
        "unfaithful": _rate(unfaithful),
        "by_type": {e: _rate([r for r in unfaithful if r["error_type"] == e]) for e in types},
        "by_source": {
            s: {
                "faithful": _rate([r for r in faithful if r["source"] == s]),
                "unfaithful": _rate([r for r in unfaithful if r["source"] == s]),
            }
            for s in sources
        },
        "rejected_faithful_reasons": dict(
            Counter(str(r["reason"]).split(":")[0] for r in faithful if not r["accepted"]).most_common()
        ),
    }
    f, u = t["faithful"]["rate"] or 0.0, t["unfaithful"]["rate"] or 0.0
    worst = max((v["rate"] or 0.0 for v in t["by_type"].values()), default=0.0)
    t["targets_met"] = (
        f >= TARGETS["faithful_accepted_min"]
        and u <= TARGETS["unfaithful_accepted_max"]
        and worst <= TARGETS["per_type_max"]
    )
    return t


def hardest(rows: list[dict[str, Any]], n: int = 10) -> list[dict[str, Any]]:
    """The judge's mistakes, highest cosine first: unfaithful claims accepted and faithful
    claims rejected, taken in turn."""
    keep = ("id", "source", "label", "error_type", "reason", "cosine", "claim", "evidence")
    lists = [
        sorted((r for r in rows if r["accepted"] != (r["label"] == "faithful") and r["label"] == lab),
               key=lambda r: -(r["cosine"] or 0.0))
        for lab in ("unfaithful", "faithful")
    ]  # fmt: skip
    out: list[dict[str, Any]] = []
    while len(out) < n and any(lists):
        for lst in lists:
            if lst and len(out) < n:
                r = lst.pop(0)
                out.append({k: r[k] for k in keep})
    return out


def format_tables(name: str, t: dict[str, Any]) -> str:
    """The tables as Markdown."""

    def cell(r: dict[str, Any]) -> str:
        return f"{r['accepted']}/{r['n']} = {r['rate']:.3f}" if r["n"] else "-"

    lines = [f"### {name}", "", "| pairs | accepted |", "|---|---|"]
    lines.append(f"| faithful | {cell(t['faithful'])} |")
    lines.append(f"| unfaithful (all) | {cell(t['unfaithful'])} |")
    lines += [f"| unfaithful: {e} | {cell(r)} |" for e, r in t["by_type"].items()]
    for s, r in t["by_source"].items():
        lines.append(f"| {s}: faithful | {cell(r['faithful'])} |")
        lines.append(f"| {s}: unfaithful | {cell(r['unfaithful'])} |")
    lines += ["", f"targets met: {t['targets_met']}; faithful rejected by: {t['rejected_faithful_reasons']}"]
    return "\n".join(lines)
