"""`rag bench` against the plain llama-index baseline (`rag.evaluation.baseline`): latency on the
same queries, hit@1/recall@5 on the same questions."""

from __future__ import annotations

import logging
from typing import Any

from rag.bench.scale import latency, paired_latency, uncached_answer
from rag.evaluation.baseline import baseline_ranking
from rag.evaluation.evalset import EvalCase
from rag.evaluation.metrics import hit_at_1, recall_at_k
from rag.retrieval.retriever import Retriever

log = logging.getLogger(__name__)


def compare(
    baseline_index: Any,
    ours: Retriever,
    questions: list[str],
    cases: list[EvalCase],
    answer_latency: dict[str, float],
) -> dict[str, Any]:
    """Latency on the same distinct queries and hit@1/recall@5 on the eval set's
    single-turn answerable questions, ours vs the baseline."""
    retriever = baseline_index.as_retriever(similarity_top_k=5)
    baseline_ranking(retriever, "warm up")
    # Its query embedding is uncached, as ours is in the bench.
    lat = latency(lambda q: baseline_ranking(retriever, q), questions)
    scored = [c for c in cases if c.gold_ids and not c.history]
    hb = rb = ho = ro = 0.0
    for c in scored:
        base = baseline_ranking(retriever, c.question)
        mine = [h.paper_id for h in ours.retrieve(c.question, top_k=5).hits]
        hb += hit_at_1(base, c.gold_ids)
        rb += recall_at_k(base, c.gold_ids, 5)
        ho += hit_at_1(mine, c.gold_ids)
        ro += recall_at_k(mine, c.gold_ids, 5)
    n = max(1, len(scored))
    paired = _paired(ours, retriever, questions)
    return {
        "paired": paired,
        "retrieval_incl_query_embedding": lat,
        "eval_questions": len(scored),
        "hit_at_1": round(hb / n, 4),
        "recall_at_5": round(rb / n, 4),
        "ours_hit_at_1": round(ho / n, 4),
        "ours_recall_at_5": round(ro / n, 4),
        # > 1 means our whole answer path is slower than the baseline's bare retrieval.
        "ratio_our_answer_p50_to_baseline_retrieval_p50": round(answer_latency["p50_ms"] / lat["p50_ms"], 3),
        "ratio_our_answer_p95_to_baseline_retrieval_p95": round(answer_latency["p95_ms"] / lat["p95_ms"], 3),
    }


def _paired(ours: Retriever, retriever: Any, questions: list[str]) -> dict[str, Any]:
    """Our whole extractive answer and the baseline's bare retrieval timed question by question
    in turn (`paired_latency`), query cache off on both sides: the ratio the machine's drift
    does not move."""
    mine, base = paired_latency(uncached_answer(ours), lambda q: baseline_ranking(retriever, q), questions)
    return {
        "our_answer": mine,
        "baseline_retrieval": base,
        "ratio_p50": round(mine["p50_ms"] / base["p50_ms"], 3),
        "ratio_p95": round(mine["p95_ms"] / base["p95_ms"], 3),
    }
