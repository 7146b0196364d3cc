"""Instance start and reload at scale, in-process (imports excluded): what a second app
instance pays to open an index another instance built, and what a running instance pays to
swap in the snapshot after another instance's ingest."""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import Any

from rag.bench.scale import synthetic_abstracts, write_text_corpus
from rag.index.ingest import ingest
from rag.index.store import Store
from rag.models.embed import Embedder
from rag.retrieval.retriever import Retriever

log = logging.getLogger(__name__)

# A small upload: the reload it causes costs about the same whatever its size.
INGEST_ABSTRACTS = 3


def instance_reload(
    home: Path, collection: str, base_texts: list[str], embedder: Embedder, hnsw: dict[str, int]
) -> dict[str, Any]:
    """Seconds for a new instance to load the snapshot the writer left (array and BM25 files
    ready), then for that instance to reload after another instance ingests a file."""
    reader = Retriever(Store(home, collection=collection, hnsw=hnsw), embedder, home)
    t = time.perf_counter()
    before = len(reader.snapshot.sentences)
    start_s = time.perf_counter() - t
    # Another instance: its own Store object on the same home, as a second process would have.
    writer = Store(home, collection=collection, hnsw=hnsw)
    folder = home / "upload"
    write_text_corpus(folder, "upload", synthetic_abstracts(base_texts, INGEST_ABSTRACTS, seed=11))
    ingest([folder], store=writer, embedder=embedder, home=home, progress=False)
    t = time.perf_counter()
    changed = reader.refresh()
    reload_s = time.perf_counter() - t
    after = len(reader.snapshot.sentences)
    log.info("bench: instance start %.2fs, reload %.2fs (%d -> %d chunks)", start_s, reload_s, before, after)
    return {
        "instance_start_seconds": round(start_s, 3),
        "reload_after_ingest_seconds": round(reload_s, 3),
        "reload_changed": changed,
        "chunks_added_by_ingest": after - before,
    }
