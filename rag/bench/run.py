"""`rag bench`: ingest, retrieval, answer, start-up and memory figures on this machine.

Everything is measured in one run and printed as one table (or one JSON object). Latencies
are median and p95 over distinct eval questions with the query-embedding cache off;
throughputs are single timed runs after a warm-up.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

import numpy as np

from rag.bench.real import real_corpus
from rag.bench.reload import instance_reload
from rag.bench.scale import bench_size, latency, synthetic_abstracts, uncached_answer, write_text_corpus
from rag.bench.targets import targets
from rag.corpus.reader import corpus_files, read_corpus_file
from rag.engine import Engine
from rag.index.ingest import split_chunks
from rag.index.snapshot import Snapshot
from rag.models.embed import Embedder
from rag.retrieval.retriever import Retriever
from rag.settings import PROJECT_ROOT, Settings

log = logging.getLogger(__name__)

FULL_SIZES = [1000, 10000, 100000]
QUICK_SIZES = [1000]


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


def _mb(kb: float) -> float:
    return round(kb / 1024, 1)


def time_answers(retriever: Retriever, questions: list[str]) -> dict[str, float]:
    """p50/p95 of `uncached_answer` (synthetic indexes have a retriever but no engine)."""
    one = uncached_answer(retriever)
    one(questions[0])
    return latency(one, questions)


def measure_ingest(engine: Engine, folder: Path) -> dict[str, Any]:
    """Ingest of `folder` next to the raw embedding of exactly the chunks it embeds."""
    papers = [p for f in corpus_files([folder]) for p in read_corpus_file(f)]
    texts = [t for p in papers for _, _, t in split_chunks(p, engine.embedder)]
    t = time.perf_counter()
    engine.embedder.embed(texts)
    raw = time.perf_counter() - t
    t = time.perf_counter()
    report = engine.ingest([folder], progress=False)
    took = time.perf_counter() - t
    t = time.perf_counter()
    again = engine.ingest([folder], progress=False)
    reingest = time.perf_counter() - t
    if again.chunks_embedded:
        raise RuntimeError("re-ingest of an unchanged corpus embedded chunks")
    return {
        "abstracts": len(papers),
        "chunks": report.chunks,
        "seconds": round(took, 3),
        "abstracts_per_s": round(len(papers) / took, 2),
        "chunks_per_s": round(report.chunks / took, 2),
        "raw_embed_seconds": round(raw, 3),
        "raw_embed_chunks_per_s": round(len(texts) / raw, 2),
        "overhead_ratio": round(took / raw, 3),
        "reingest_unchanged_seconds": round(reingest, 3),
    }


# Runs `rag ask` and reports the process's own peak RSS: the rusage of a child (`wait4`)
# carries the forking parent's peak across exec, so it would report the bench's memory.
_ASK_WITH_HWM = (
    "import sys\n"
    "from rag.cli.main import main\n"
    "rc = main(sys.argv[1:])\n"
    "hwm = [ln for ln in open('/proc/self/status') if ln.startswith('VmHWM:')][0].split()[1]\n"
    "print('VMHWM_KB', hwm, file=sys.stderr)\n"
    "sys.exit(rc)\n"
)


def cold_start(home: Path, question: str) -> dict[str, float]:
    """`rag ask` in a fresh process against an existing index: start to answer, peak RSS."""
    env = {**os.environ, "RAG_HOME": str(home)}
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _ASK_WITH_HWM, "ask", question],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
    )
    took = time.perf_counter() - t
    hwm = [ln.split()[1] for ln in proc.stderr.splitlines() if ln.startswith("VMHWM_KB ")]
    if proc.returncode != 0 or not hwm:
        raise RuntimeError(f"cold-start ask failed: {proc.stderr[-300:]}")
    return {"seconds": round(took, 2), "peak_rss_mb": _mb(float(hwm[0]))}


def _vm_hwm_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return _mb(float(line.split()[1]))
    return float("nan")


def serve_figures(home: Path, questions: list[str]) -> dict[str, Any]:
    """`rag serve`: seconds until the page answers, then peak RSS after answering through the API."""
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "RAG_HOME": str(home)}
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rag.cli", "serve", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    out: dict[str, Any] = {}
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=2) as r:
                    if r.status == 200:
                        break
            except OSError:
                time.sleep(0.1)
        else:
            raise RuntimeError("rag serve did not become ready in 120 s")
        out["ready_seconds"] = round(time.perf_counter() - t, 2)
        out["rss_at_ready_mb"] = _vm_hwm_mb(proc.pid)
        from gradio_client import Client

        client = Client(url, verbose=False)
        for i, q in enumerate(questions):
            client.predict(q, [], "extractive", 5, [], [], api_name="/ask")
            if i == 0:  # the page binds before the index is open: the first answer waits for it
                out["first_answer_seconds"] = round(time.perf_counter() - t, 2)
        out["answered"] = len(questions)
        out["peak_rss_mb"] = _vm_hwm_mb(proc.pid)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    return out


def embedding_backends(texts: list[str], cache_dir: Path) -> dict[str, Any]:
    try:
        from rag.bench.embed import measure_backends  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        return {"skipped": "rag.bench.embed is not available"}
    return measure_backends(texts, ["torch", "onnx", "onnx-int8"], cache_dir=cache_dir)  # type: ignore[no-any-return]


def run_bench(settings: Settings, *, quick: bool = False, sizes: list[int] | None = None) -> dict[str, Any]:
    sizes = sizes or (QUICK_SIZES if quick else FULL_SIZES)
    n_texts = 40 if quick else 2000
    questions = bench_questions(60)
    result: dict[str, Any] = {"quick": quick, "queries": len(questions)}
    with tempfile.TemporaryDirectory(prefix="rag-bench-") as tmp:
        root = Path(tmp)
        s = settings.model_copy(update={"home": root / "home", "chroma_url": None})
        engine = Engine(s)
        engine.embedder.embed(["warm up"])  # model load is not throughput

        # The shipped corpus: ingest, re-ingest, query embedding, retrieval, answers.
        result["corpus"] = measure_ingest(engine, Path(s.data_dir))
        retriever = engine.retriever
        snap = retriever.snapshot
        qvecs = np.stack([retriever.embed_query(q, cache=False) for q in questions])
        result["query_embedding"] = latency(lambda q: retriever.embed_query(q, cache=False), questions)
        from rag.bench.scale import time_modes

        result["corpus"]["retrieval"] = time_modes(retriever, questions, qvecs)
        result["corpus"]["answer"] = time_answers(retriever, questions)

        base_texts = [n.get_content() for n in snap.sentences.values()]
        base_vecs = np.stack([snap.vectors[i] for i in snap.sentences])
        result["ingest"] = _synthetic_ingest(engine, s, root, base_texts, n_texts)
        hnsw = {"ef_search": s.hnsw_ef_search, "ef_construction": s.hnsw_ef_construction, "max_neighbors": s.hnsw_m}
        result["hnsw"] = hnsw
        result["sizes"] = _at_scale(root, sizes, base_texts, base_vecs, engine.embedder, questions, qvecs, hnsw)
        result["baseline"] = _baseline(root, engine, snap, questions, result["corpus"]["answer"])

        result["real_corpus"] = real = real_corpus(
            s, root, engine, questions, quick=quick, measure_ingest=measure_ingest, time_answers=time_answers
        )
        if "ingest" in real:  # a new process on the bigger index: `rag ask`, and `rag serve`
            # This home was filled with the bench's own embedder: a first run exports the ONNX
            # model into it, as `rag ingest` would have ("index built, files cached").
            cold_start(Path(real["home"]), questions[1])
            real["cold_start_ask"] = cold_start(Path(real["home"]), questions[0])
            if not quick:
                real["serve"] = serve_figures(Path(real["home"]), questions[:20])
        result["cold_start_ask"] = cold_start(Path(s.home), questions[0])
        if not quick:
            result["serve"] = serve_figures(Path(s.home), questions[:20])
            result["embedding_backends"] = embedding_backends(base_texts, root / "models")
    result["bench_peak_rss_mb"] = _mb(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
    result["targets"] = targets(result)
    return result


def _synthetic_ingest(engine: Engine, s: Settings, root: Path, base_texts: list[str], n_texts: int) -> dict[str, Any]:
    """Ingest throughput on real-length synthetic texts with the real model."""
    folder = root / "synthetic"
    write_text_corpus(folder, "synthetic", synthetic_abstracts(base_texts, n_texts, seed=7))
    synth = Engine(s.model_copy(update={"home": root / "synth-home"}), embedder=engine.embedder)
    return measure_ingest(synth, folder)


def _at_scale(
    root: Path,
    sizes: list[int],
    base_texts: list[str],
    base_vecs: np.ndarray,
    embedder: Embedder,
    questions: list[str],
    qvecs: np.ndarray,
    hnsw: dict[str, int],
) -> dict[str, Any]:
    """Retrieval at scale on synthetic indexes (the last size also times answers)."""
    out: dict[str, Any] = {}
    for i, n in enumerate(sizes):
        answer_fn = time_answers if i == len(sizes) - 1 else None
        log.info("bench: synthetic index of %d chunks", n)
        home = root / f"size-{n}"
        out[str(n)] = bench_size(
            home, n, base_texts, base_vecs, embedder, questions, qvecs, hnsw=hnsw, answer_fn=answer_fn
        )
        # After the timings above: it ingests into this index.
        out[str(n)].update(instance_reload(home, f"bench{n}", base_texts, embedder, hnsw))
    return out


def _baseline(
    root: Path, engine: Engine, snap: Snapshot, questions: list[str], ours: dict[str, float]
) -> dict[str, Any]:
    """The plain llama-index baseline over the same corpus and queries."""
    from rag.bench.baseline import compare
    from rag.evaluation.baseline import build_baseline
    from rag.evaluation.evalset import load_set

    index, _ = build_baseline(root, list(snap.papers.values()), engine.embedder)
    cases = load_set(PROJECT_ROOT / "eval" / "test.jsonl")
    return compare(index, engine.retriever, questions, cases, ours)


def _flat(prefix: str, value: Any, out: list[tuple[str, Any]]) -> None:
    if isinstance(value, dict):
        for k, v in value.items():
            _flat(f"{prefix}.{k}" if prefix else str(k), v, out)
    else:
        out.append((prefix, value))


def format_table(result: dict[str, Any]) -> str:
    """One table: every measured figure on its own row, then the targets."""
    rows: list[tuple[str, Any]] = []
    _flat("", {k: v for k, v in result.items() if k != "targets"}, rows)
    width = max(len(k) for k, _ in rows)
    lines = [
        "rag bench (real_corpus.* = the shipped corpus plus real proceedings abstracts; corpus.* = the",
        "shipped corpus; ingest.* and sizes.* use synthetic sentences (sizes: vectors = real embeddings",
        "+ seeded noise; latency does not depend on meaning). Latencies in ms, median/p95 over distinct queries.",
        "",
    ]
    lines += [f"{k:<{width}}  {v}" for k, v in rows]
    lines += ["", "targets (value / limit / met):"]
    for name, t in result["targets"].items():
        met = "n/a" if t["met"] is None else ("yes" if t["met"] else "NO")
        lines.append(f"  {name:<{width - 2}}  {t['value']} / {t['limit']} / {met}")
    return "\n".join(lines)
