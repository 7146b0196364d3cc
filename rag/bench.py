"""`rag bench`: ingest and query speed on this machine, printed as one table."""

from __future__ import annotations

import json
import logging
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from rag.answer import answer
from rag.corpus import corpus_files, read_corpus_file
from rag.engine import Engine
from rag.ingest import split_chunks
from rag.settings import PROJECT_ROOT, Settings

log = logging.getLogger(__name__)


def _pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(p / 100 * (len(xs) - 1)))]


def bench_questions(limit: int) -> list[str]:
    """Distinct questions from the eval sets (no history)."""
    seen: dict[str, None] = {}
    for name in ("dev.jsonl", "test.jsonl"):
        path = PROJECT_ROOT / "eval" / name
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    seen.setdefault(json.loads(line)["question"], None)
    return list(seen)[:limit]


def run_bench(settings: Settings, *, quick: bool = False) -> dict[str, Any]:
    n_queries = 20 if quick else 100
    with tempfile.TemporaryDirectory(prefix="rag-bench-") as tmp:
        s = settings.model_copy(update={"home": Path(tmp) / "home", "chroma_url": None})
        engine = Engine(s)
        engine.embedder.embed(["warm up"])  # model load is not throughput
        files = corpus_files([Path(s.data_dir)])
        papers = [p for f in files for p in read_corpus_file(f)]
        texts = [t for p in papers for _, _, t in split_chunks(p, engine.embedder)]

        t = time.perf_counter()
        engine.embedder.embed(texts)
        raw = time.perf_counter() - t

        t = time.perf_counter()
        report = engine.ingest([Path(s.data_dir)], progress=False)
        ingest_s = time.perf_counter() - t

        t = time.perf_counter()
        again = engine.ingest([Path(s.data_dir)], progress=False)
        reingest_s = time.perf_counter() - t
        assert again.chunks_embedded == 0

        questions = bench_questions(n_queries)
        retriever = engine.retriever
        retriever.retrieve("warm up", cache=False)
        ret, ans, embed_only = [], [], []
        for q in questions:
            t = time.perf_counter()
            qv = retriever.embed_query(q, cache=False)
            t1 = time.perf_counter()
            retriever.retrieve(q, query_vec=qv)
            t2 = time.perf_counter()
            embed_only.append(t1 - t)
            ret.append(t2 - t1)
        for q in questions:
            t = time.perf_counter()
            answer(q, retriever=retriever, cache=False)
            ans.append(time.perf_counter() - t)
    ms = 1000.0
    return {
        "papers": len(papers),
        "chunks": report.chunks,
        "queries": len(questions),
        "ingest_seconds": round(ingest_s, 3),
        "ingest_abstracts_per_s": round(len(papers) / ingest_s, 2),
        "ingest_chunks_per_s": round(report.chunks / ingest_s, 2),
        "raw_embed_seconds": round(raw, 3),
        "raw_embed_abstracts_per_s": round(len(papers) / raw, 2),
        "raw_embed_chunks_per_s": round(len(texts) / raw, 2),
        "ingest_overhead_ratio": round(ingest_s / raw, 3),
        "reingest_unchanged_seconds": round(reingest_s, 3),
        "query_embed_ms_p50": round(statistics.median(embed_only) * ms, 2),
        "retrieval_ms_p50": round(statistics.median(ret) * ms, 2),
        "retrieval_ms_p95": round(_pct(ret, 95) * ms, 2),
        "answer_ms_p50": round(statistics.median(ans) * ms, 2),
        "answer_ms_p95": round(_pct(ans, 95) * ms, 2),
    }


_LABELS = {
    "ingest_abstracts_per_s": "ingest (abstracts/s)",
    "raw_embed_abstracts_per_s": "raw embedding, same chunks (abstracts/s)",
    "ingest_overhead_ratio": "ingest time / raw embedding time",
    "reingest_unchanged_seconds": "re-ingest unchanged corpus (s)",
    "query_embed_ms_p50": "query embedding p50 (ms)",
    "retrieval_ms_p50": "hybrid retrieval p50, excl. query embedding (ms)",
    "retrieval_ms_p95": "hybrid retrieval p95, excl. query embedding (ms)",
    "answer_ms_p50": "extractive answer p50, incl. query embedding, no cache (ms)",
    "answer_ms_p95": "extractive answer p95, incl. query embedding, no cache (ms)",
}


def format_table(result: dict[str, Any]) -> str:
    head = f"corpus: {result['papers']} papers, {result['chunks']} chunks; {result['queries']} distinct queries"
    width = max(len(v) for v in _LABELS.values())
    rows = [f"{label:<{width}}  {result[key]}" for key, label in _LABELS.items()]
    return "\n".join([head, *rows])
