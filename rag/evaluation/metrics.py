"""Grounding metrics: pure functions over eval cases and answer rows (no model, no judge LLM)."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Sequence
from typing import Any

from rag.answer.cite import supports
from rag.evaluation.stats import percentile, refusal_prf
from rag.text.normalize import clean, is_verbatim, match_form

_MARKERS = re.compile(r"((?:\s*\[\d+\])+)")
_BULLET = re.compile(r"^\s*-\s+[^:]{1,80}:\s+")

Row = dict[str, Any]  # one results.jsonl row: the `rag ask --json` object + id, type, error
Case = dict[str, Any]  # one eval-set line


def normalize_fact_text(text: str) -> str:
    """Lowercase, no markdown/LaTeX noise, digit groups joined ("6,658" = "6658")."""
    text = match_form(clean(text))
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    text = text.replace("$", "").replace("\\times", "×")
    # An answer writes a source's own "[2017]" as "(2017)" (its markers are "[n]").
    text = re.sub(r"\[([\d\s,;]+)\]", r"(\1)", text)
    return re.sub(r"\s+", " ", text)


def fact_found(fact: str, answer: str) -> bool:
    return normalize_fact_text(fact) in normalize_fact_text(answer)


def answer_sentences(answer: str) -> list[tuple[str, list[int]]]:
    """Split an answer into (claim, citation numbers); a trailing marker group closes a sentence."""
    out: list[tuple[str, list[int]]] = []
    for line in answer.splitlines():
        line = _BULLET.sub("", line).strip()
        if not line:
            continue
        parts = _MARKERS.split(line)
        # parts alternates text, markers, text, markers, ..., text
        for i in range(0, len(parts), 2):
            text = parts[i].strip()
            nums = [int(n) for n in re.findall(r"\d+", parts[i + 1])] if i + 1 < len(parts) else []
            if text:
                out.append((text, nums))
    return out


# --- retrieval -----------------------------------------------------------------------
def hit_at_1(ranked: Sequence[str], gold: Sequence[str]) -> float:
    return float(bool(ranked) and ranked[0] in gold)


def recall_at_k(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    return len(set(ranked[:k]) & set(gold)) / len(set(gold)) if gold else 0.0


def mrr(ranked: Sequence[str], gold: Sequence[str]) -> float:
    return next((1.0 / (i + 1) for i, pid in enumerate(ranked) if pid in gold), 0.0)


def ndcg_at_k(ranked: Sequence[str], gold: Sequence[str], k: int) -> float:
    dcg = sum(1.0 / math.log2(i + 2) for i, pid in enumerate(ranked[:k]) if pid in gold)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(set(gold)), k)))
    return dcg / ideal if ideal else 0.0


# --- citations -----------------------------------------------------------------------
def is_fabricated(citation: dict[str, Any], source_ids: set[str], abstracts: dict[str, str]) -> bool:
    """Paper not among the retrieved sources, or quote not verbatim in that paper's abstract."""
    pid = citation.get("paper_id")
    quote = citation.get("quote") or ""
    if pid not in source_ids or pid not in abstracts:
        return True
    return not is_verbatim(quote, abstracts[pid])


SupportFn = Callable[[str, str, str], bool]


def default_support(claim: str, quote: str, abstract: str) -> bool:
    """The support judge without embeddings (content words and numbers only)."""
    return supports(claim, clean(quote), source_text=abstract)


def support_with(cosine: Callable[[str, str], float]) -> SupportFn:
    """The full support judge: content words, numbers and embedding cosine."""

    def judge(claim: str, quote: str, abstract: str) -> bool:
        q = clean(quote)
        return supports(claim, q, source_text=abstract, cosine=cosine(claim, q))

    return judge


def citation_scores(
    row: Row, gold: Sequence[str], abstracts: dict[str, str], support: SupportFn = default_support
) -> tuple[float | None, float | None, int]:
    """(citation precision, citation recall, fabricated count) for one answer.

    Precision: of the (sentence, cited paper) pairs, the share whose paper is gold and whose
    quote(s) support the sentence. Recall: the share of answer sentences supported by at
    least one of their citations. None when there is nothing to score.
    """
    cites = row.get("citations") or []
    source_ids = {s["paper_id"] for s in row.get("sources") or []}
    fabricated = sum(is_fabricated(c, source_ids, abstracts) for c in cites)
    if row.get("refused") or not cites:
        return None, None, fabricated
    by_n: dict[int, list[dict[str, Any]]] = {}
    for c in cites:
        by_n.setdefault(int(c["n"]), []).append(c)
    pairs = good = supported = 0
    sentences = answer_sentences(row.get("answer", ""))
    for claim, nums in sentences:
        ok_any = False
        for n in dict.fromkeys(nums):
            pairs += 1
            group = by_n.get(n, [])
            ok = any(
                not is_fabricated(c, source_ids, abstracts) and support(claim, c["quote"], abstracts[c["paper_id"]])
                for c in group
            )
            ok_any |= ok
            good += ok and bool(group) and group[0]["paper_id"] in gold
        supported += ok_any
    precision = good / pairs if pairs else 0.0
    recall = supported / len(sentences) if sentences else 0.0
    return precision, recall, fabricated


# --- per question, then aggregate ----------------------------------------------------
def score_row(case: Case, row: Row, abstracts: dict[str, str], support: SupportFn = default_support) -> dict[str, Any]:
    """Every per-question quantity the report aggregates (None = not applicable)."""
    gold = list(case.get("gold_ids") or [])
    answerable = case["type"] != "unanswerable"
    ranked = [s["paper_id"] for s in row.get("sources") or []]
    cited = list(dict.fromkeys(c["paper_id"] for c in row.get("citations") or []))
    err = bool(row.get("error"))
    s: dict[str, Any] = {"id": case["id"], "type": case["type"], "tags": list(case.get("tags") or []), "error": err}
    s["unanswerable"] = not answerable
    s["refused"] = bool(row.get("refused")) and not err  # an error is an error, never a refusal
    s["latency_ms"] = None if err else float(row.get("latency_ms") or 0.0)
    if answerable:
        s["hit@1"] = hit_at_1(ranked, gold)
        s["recall@5"] = recall_at_k(ranked, gold, 5)
        s["mrr"] = mrr(ranked, gold)
        s["ndcg@10"] = ndcg_at_k(ranked, gold, 10)
        facts = case.get("answer_facts") or []
        text = "" if s["refused"] else row.get("answer", "")
        s["fact_recall"] = sum(fact_found(f, text) for f in facts) / len(facts) if facts else None
        s["answerable_refused"] = s["refused"]
    p, r, fab = citation_scores(row, gold, abstracts, support) if answerable else (None, None, 0)
    if not answerable:
        fab = citation_scores(row, gold, abstracts, support)[2]
    s["citation_precision"], s["citation_recall"], s["fabricated"] = p, r, fab
    s.update(_answer_scores(case, row, s, gold, cited))
    if case["type"] == "multi":
        inter = len(set(cited) & set(gold))
        s["set_recall"] = inter / len(set(gold)) if gold else None
        s["set_precision"] = inter / len(cited) if cited else 0.0
    if case["type"] == "followup":
        s["followup_hit@1"] = hit_at_1(ranked, gold)
    s.update(_llm_scores(row))
    s["reason"] = failure_reason(case, row, s)
    return s


def _answer_scores(case: Case, row: Row, s: dict[str, Any], gold: list[str], cited: list[str]) -> dict[str, Any]:
    """Is the answer about the right paper, and does it lead with the asked-for fact?"""
    out: dict[str, Any] = {}
    answered = not s["refused"] and not s["error"]
    if case["type"] != "unanswerable" and answered:
        out["cited_gold"] = len(set(cited) & set(gold))
        out["cited_n"] = len(cited)
    if case["type"] in ("single", "followup"):
        out["wrong_paper"] = (not set(cited) & set(gold)) if answered else None
        sentences = answer_sentences(row.get("answer", "")) if answered else []
        facts = case.get("answer_facts") or []
        first = sentences[0][0] if sentences else ""
        out["answer_focus"] = any(fact_found(f, first) for f in facts) if answered and facts else None
        if len(gold) == 1:
            out["answer_length"] = len(sentences) if answered else None
    if "ordinal" in (case.get("tags") or []):
        out["followup_exact_set"] = answered and set(cited) == set(gold)
    return out


def _llm_scores(row: Row) -> dict[str, Any]:
    """LLM backends: how much of what the model wrote survived verification."""
    src = row.get("answer_source")
    out: dict[str, Any] = {"llm": src in ("llm", "fallback") and not row.get("refused") and not row.get("error")}
    if out["llm"]:
        checks = [
            c for c in row.get("sentences") or [] if c.get("evidence_quote") is not None or not c.get("supported")
        ]
        llm_checks = checks if src == "llm" else [c for c in checks if not c.get("supported")]
        out["llm_sentences"] = len(llm_checks)
        out["llm_supported"] = sum(bool(c.get("supported")) for c in llm_checks)
        out["fallback"] = src == "fallback"
        out["first_token_ms"] = row.get("first_token_ms")
    return out


def failure_reason(case: Case, row: Row, s: dict[str, Any]) -> str | None:
    if row.get("error"):
        return "error"
    if case["type"] == "unanswerable":
        return None if s["refused"] else "not refused"
    gold = set(case.get("gold_ids") or [])
    top5 = [x["paper_id"] for x in (row.get("sources") or [])[:5]]
    cited = {c["paper_id"] for c in row.get("citations") or []}
    if not gold & set(top5):
        return "gold not retrieved"
    if s["refused"]:
        return "wrongly refused"
    if not gold & cited:
        return "retrieved but not cited"
    if s.get("fact_recall") is not None and s["fact_recall"] < 1.0:
        return "fact missing"
    return None


MEAN_METRICS = [
    "hit@1",
    "recall@5",
    "mrr",
    "ndcg@10",
    "citation_precision",
    "citation_recall",
    "fact_recall",
    "set_recall",
    "set_precision",
    "followup_hit@1",
    "answer_focus",
    "answer_length",
    "answerable_refused",
    "followup_exact_set",
    "list_precision",
    "list_precision_lenient",
    "list_judged",
]


def aggregate(scores: Sequence[dict[str, Any]]) -> dict[str, float]:
    """Metric values over a set of scored questions (means over applicable questions).
    Questions that errored count in `errors` only, in no other metric."""
    out: dict[str, float] = {"n": float(len(scores)), "errors": float(sum(s["error"] for s in scores))}
    scores = [s for s in scores if not s["error"]]
    for m in MEAN_METRICS:
        vals = [s[m] for s in scores if s.get(m) is not None]
        if vals:
            out[m] = sum(vals) / len(vals)
    wrong = [s["wrong_paper"] for s in scores if s.get("wrong_paper") is not None]
    if wrong:
        out["wrong_paper_rate"] = sum(wrong) / len(wrong)
    cited = sum(s.get("cited_n", 0) for s in scores)
    if cited:
        out["cited_gold_precision"] = sum(s.get("cited_gold", 0) for s in scores) / cited
    out["fabricated_citations"] = float(sum(s["fabricated"] for s in scores))
    if any(s["unanswerable"] for s in scores):
        p, r, f1 = refusal_prf([s["unanswerable"] for s in scores], [s["refused"] for s in scores])
        out.update({"refusal_precision": p, "refusal_recall": r, "refusal_f1": f1})
    lat = [s["latency_ms"] for s in scores if s["latency_ms"] is not None]
    if lat:
        out["latency_p50_ms"] = percentile(lat, 50)
        out["latency_p95_ms"] = percentile(lat, 95)
    llm = [s for s in scores if s.get("llm")]
    if llm:
        total = sum(s["llm_sentences"] for s in llm)
        out["llm_sentences_kept"] = sum(s["llm_supported"] for s in llm) / total if total else 0.0
        out["fallback_rate"] = sum(s["fallback"] for s in llm) / len(llm)
        ft = [s["first_token_ms"] for s in llm if s.get("first_token_ms") is not None]
        if ft:
            out["first_token_p50_ms"] = percentile(ft, 50)
    return out


def bootstrap_ci(
    scores: Sequence[dict[str, Any]], *, reps: int = 1000, seed: int = 0, alpha: float = 0.05
) -> dict[str, tuple[float, float]]:
    """95% percentile bootstrap intervals, resampling questions (seeded: reproducible)."""
    if not scores:
        return {}
    rng = random.Random(seed)
    samples: dict[str, list[float]] = {}
    n = len(scores)
    for _ in range(reps):
        resample = [scores[rng.randrange(n)] for _ in range(n)]
        for k, v in aggregate(resample).items():
            samples.setdefault(k, []).append(v)
    lo, hi = 100 * alpha / 2, 100 * (1 - alpha / 2)
    return {k: (percentile(v, lo), percentile(v, hi)) for k, v in samples.items() if k not in ("n", "errors")}
