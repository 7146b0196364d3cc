"""`rag eval --corpus`: an index of the shipped data plus extra corpus files, in its own folder.

The folder under `RAG_HOME/eval-index/` is named by a key over the files' content hashes, the
embedding model and backend, and the index format, so a second run reuses it (after an
incremental ingest: about a second when nothing changed, a relabel when the parsing code did)
and a changed file, model or format never reuses a stale one.
"""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from pathlib import Path
from typing import Any

from rag.corpus.reader import corpus_files
from rag.engine import Engine
from rag.models.embed import Embedder
from rag.settings import Settings

log = logging.getLogger(__name__)

INDEX_FORMAT = 1  # bump when the stored chunk schema changes


def corpus_key(files: list[Path], model: str, backend: str) -> str:
    h = hashlib.sha256()
    for f in sorted(files, key=lambda p: p.name):
        sidecar = f.with_name(f.stem + ".meta.jsonl")  # titles and authors change the index too
        for part in (f, sidecar) if sidecar.exists() else (f,):
            h.update(f"{part.name}\0{hashlib.sha256(part.read_bytes()).hexdigest()}\n".encode())
    h.update(f"{model}\0{backend}\0{INDEX_FORMAT}".encode())
    return h.hexdigest()[:16]


def corpus_engine(
    settings: Settings, corpora: list[Path], *, embedder: Embedder | None = None
) -> tuple[Engine, dict[str, Any]]:
    """An engine over `data_dir` plus `corpora`, built once per distinct content."""
    paths = [Path(settings.data_dir), *corpora]
    files = corpus_files(paths)
    key = corpus_key(files, settings.model_path(), settings.embed_backend)
    home = Path(settings.home) / "eval-index" / key
    done = home / "complete.json"
    fresh = not done.exists()
    if fresh and home.exists():
        # A build that was killed part-way (its store may be half-written) is never resumed.
        log.info("removing an unfinished eval index at %s", home)
        shutil.rmtree(home)
    engine = Engine(settings.model_copy(update={"home": home, "chroma_url": None}), embedder=embedder)
    if fresh:
        log.info("indexing %d file(s) for this eval into %s", len(files), home)
    # Reused, still brought up to date: unchanged files cost a hash each (rag/index/file_records),
    # and papers whose labels or sentences changed with the parsing rules are indexed again.
    report = engine.ingest(paths)
    if report.errors:
        raise ValueError("; ".join(report.errors))
    if fresh:
        done.write_text(json.dumps({"key": key, "files": [str(f) for f in files]}), encoding="utf-8")
    info = {"files": [f.name for f in files], "papers": len(engine.papers), "index": str(home)}
    return engine, info
