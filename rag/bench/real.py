"""Figures on real text: the shipped corpus plus the real proceedings abstracts of
`eval/corpora/` (all of them, or the first 200 with `--quick`) — ingest against raw embedding,
re-ingest, answer latency, and quality next to the plain llama-index baseline on the dev
set's single-turn questions."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rag.engine import Engine
from rag.retrieval.retriever import Retriever
from rag.settings import PROJECT_ROOT, Settings

log = logging.getLogger(__name__)

REAL_CORPUS = PROJECT_ROOT / "eval" / "corpora" / "proceedings_2024_2025.jsonl"
QUICK_ABSTRACTS = 200


def real_corpus(
    settings: Settings,
    root: Path,
    engine: Engine,
    questions: list[str],
    *,
    quick: bool,
    measure_ingest: Callable[[Engine, Path], dict[str, Any]],
    time_answers: Callable[[Retriever, list[str]], dict[str, float]],
) -> dict[str, Any]:
    """Index the shipped corpus and the real abstracts in a fresh home and measure them with
    the bench's own `measure_ingest` and `time_answers` (passed in: `rag.bench.run` calls this)."""
    from rag.bench.baseline import compare
    from rag.evaluation.baseline import build_baseline
    from rag.evaluation.evalset import load_set

    if not REAL_CORPUS.is_file():
        return {"skipped": f"{REAL_CORPUS} is missing"}
    lines = [ln for ln in REAL_CORPUS.read_text(encoding="utf-8").splitlines() if ln.strip()]
    folder = root / "real"
    folder.mkdir(parents=True, exist_ok=True)
    # The slice keeps the file's name, so paper ids are those of the full corpus.
    (folder / REAL_CORPUS.name).write_text("\n".join(lines[:QUICK_ABSTRACTS] if quick else lines) + "\n", "utf-8")
    real = Engine(settings.model_copy(update={"home": root / "real-home"}), embedder=engine.embedder)
    real.ingest([Path(settings.data_dir)], progress=False)  # the dev questions' papers
    log.info("bench: ingesting %d real abstracts", min(len(lines), QUICK_ABSTRACTS) if quick else len(lines))
    out: dict[str, Any] = {"source": "real", "file": REAL_CORPUS.name, "home": str(root / "real-home")}
    out["ingest"] = measure_ingest(real, folder)
    ingest = out["ingest"]
    ingest["throughput_over_raw_embedding"] = round(1.0 / ingest["overhead_ratio"], 3)
    snap = real.retriever.snapshot
    out["papers"], out["chunks"] = len(snap.papers), len(snap.sentences)
    out["answer"] = time_answers(real.retriever, questions)
    index, _ = build_baseline(root / "real-baseline", list(snap.papers.values()), real.embedder)
    cases = [c for c in load_set(PROJECT_ROOT / "eval" / "dev.jsonl") if c.type == "single"]
    out["dev_single"] = compare(index, real.retriever, questions, cases, out["answer"])
    return out
