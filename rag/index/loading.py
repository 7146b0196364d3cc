"""Loading a snapshot: from the array files a writer published, else from the store (then
writing the files for the next reader), with this stamp's BM25 loaded or built."""

from __future__ import annotations

import logging
import shutil
import threading
from pathlib import Path

import numpy as np

from rag.errors import IndexCorrupt
from rag.index import arrays
from rag.index.bm25 import TOKEN_PATTERN, Bm25Index, build_bm25, load_bm25
from rag.index.chunks import Record, node_to_paper
from rag.index.snapshot import Snapshot
from rag.index.store import Store, stamp_of
from rag.index.vocabulary import paper_stems

log = logging.getLogger(__name__)

_bm25_lock = threading.Lock()


def _bm25(nodes: list[Record], path: Path) -> Bm25Index | None:
    if not nodes:
        return None
    if (path / "retriever.json").exists():
        try:
            index = load_bm25(path, len(nodes))
            if index.folded and index.token_pattern == TOKEN_PATTERN:
                return index
            log.info("rebuilding BM25 index at %s with accents folded and words split at underscores", path)
        except Exception as e:  # a damaged cache is rebuilt, never trusted
            log.warning("rebuilding BM25 index at %s (%s)", path, e)
    tmp = path.with_name(path.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    index = build_bm25([n.get_content() for n in nodes], tmp)
    shutil.rmtree(path, ignore_errors=True)
    tmp.rename(path)
    return index


def _incomplete(manifest: dict[str, Record], sentences: dict[str, Record]) -> list[str]:
    """Committed papers whose sentences are not all present."""
    have: dict[str, int] = {}
    for n in sentences.values():
        have[n.metadata["paper_id"]] = have.get(n.metadata["paper_id"], 0) + 1
    return sorted(pid for pid, n in manifest.items() if have.get(pid, 0) != int(n.metadata.get("n_chunks", 0)))


def bm25_ready(home: Path, collection: str, stamp: str) -> bool:
    """Whether the BM25 files of this manifest stamp are already on disk."""
    base = home / "bm25" / f"{collection}-{stamp}"
    return all((base / part / "retriever.json").exists() for part in ("sentences", "papers"))


def load_snapshot(store: Store, home: Path, *, vectors: bool = True) -> Snapshot:
    """Read the committed manifest and its sentences (with their vectors unless `vectors`
    is off): from this stamp's array files when they are intact, else from the store (and
    then the files are written for the next reader). BM25 is loaded from disk or rebuilt."""
    loaded = _read_any(store, home, vectors)
    manifest = loaded.papers
    stamp = stamp_of(manifest)
    paper_order = sorted(manifest)
    if loaded.centroids is None:
        loaded = loaded._replace(centroids=np.zeros((0, 1), dtype=np.float32))
        if vectors and paper_order:
            emb = store.paper_embeddings(paper_order)
            centroids = np.asarray([emb[p] for p in paper_order], dtype=np.float32)
            stems = {pid: paper_stems(node_to_paper(n)) for pid, n in manifest.items()}
            listed = {pid: sorted(v) for pid, v in stems.items()}
            arrays.save(home, store.name, stamp, manifest, loaded.sentences, loaded.vectors, centroids, listed)
            loaded = loaded._replace(centroids=centroids, stems=stems)
    return _assemble(home, store.name, stamp, loaded)


def load_published(home: Path, collection: str) -> Snapshot | None:
    """The snapshot of the stamp the last writer published, from its files alone (no store
    opened: a cold `rag ask` skips importing Chroma), or None when they are not all there."""
    stamp = arrays.published(home, collection)
    if stamp is None or not bm25_ready(home, collection, stamp):
        return None
    loaded = arrays.load(home, collection, stamp)
    if loaded is None or stamp_of(loaded.papers) != stamp:
        return None
    return _assemble(home, collection, stamp, loaded)


def _assemble(home: Path, collection: str, stamp: str, loaded: arrays.Loaded) -> Snapshot:
    """The snapshot of these records and vectors, with this stamp's BM25 (loaded or built;
    older generations are removed when a newer stamp is published, see `arrays.publish`)."""
    manifest, sentences = loaded.papers, loaded.sentences
    by_paper: dict[str, list[Record]] = {}
    for n in sorted(sentences.values(), key=lambda n: (n.metadata["paper_id"], int(n.metadata["sent_index"]))):
        by_paper.setdefault(n.metadata["paper_id"], []).append(n)
    base = home / "bm25" / f"{collection}-{stamp}"
    sent_order, paper_order = sorted(sentences), sorted(manifest)
    with _bm25_lock:
        bm25_s = _bm25([sentences[k] for k in sent_order], base / "sentences")
        bm25_p = _bm25([manifest[k] for k in paper_order], base / "papers")
    return Snapshot(
        stamp,
        {pid: node_to_paper(n) for pid, n in manifest.items()},
        hashes={pid: str(n.metadata["paper_hash"]) for pid, n in manifest.items()},
        sentences=sentences,
        bm25_sentences=bm25_s,
        bm25_papers=bm25_p,
        by_paper=by_paper,
        vectors=loaded.vectors,
        paper_ids=paper_order,
        centroids=loaded.centroids if loaded.centroids is not None else np.zeros((0, 1), dtype=np.float32),
        bm25_sentence_ids=sent_order,
        bm25_paper_ids=paper_order,
        stems=loaded.stems,
        matrix=loaded.matrix,
    )


def _read_any(store: Store, home: Path, vectors: bool) -> arrays.Loaded:
    """Manifest, sentences, vectors and (from array files only) centroids, stems and matrix. The
    manifest is always read from the store: its stamp names the files, so they can never be stale."""
    if vectors:
        try:
            manifest = store.manifest()
        except Exception:  # reported with the documented way out by `_read_committed`
            manifest = None
        cached = arrays.load(home, store.name, stamp_of(manifest)) if manifest else None
        # Fewer stored sentences than the files list means the store lost some (extra ones are
        # an ingest in progress): the full read below reports it instead of answering past it.
        if manifest and cached is not None and store.count()[1] >= len(cached.sentences):
            return cached._replace(papers=manifest)
    manifest, sentences, sent_vecs = _read_committed(store, vectors)
    return arrays.Loaded(manifest, sentences, sent_vecs, None, None, None)


def _read_committed(store: Store, vectors: bool) -> tuple[dict[str, Record], dict[str, Record], dict[str, np.ndarray]]:
    """The manifest and the sentences whose hash it commits (with vectors), read again
    when a concurrent writer's garbage collection shifted pages under us."""
    for attempt in range(3):
        try:
            manifest = store.manifest()
            records, vecs = store.read_sentences(with_vectors=vectors)
        except Exception as e:  # Chroma's own errors for a damaged store or a lost server
            raise IndexCorrupt(
                f"the index at {store.location} cannot be read ({type(e).__name__}: {e}); "
                "run `rag ingest --rebuild` (or check the Chroma server)"
            ) from None
        hashes = {pid: str(n.metadata["paper_hash"]) for pid, n in manifest.items()}
        sentences: dict[str, Record] = {}
        sent_vecs: dict[str, np.ndarray] = {}
        for i, n in enumerate(records):
            if hashes.get(n.metadata["paper_id"]) == n.metadata["paper_hash"]:
                sentences[n.node_id] = n
                if vectors:
                    sent_vecs[n.node_id] = vecs[i]
        missing = _incomplete(manifest, sentences)
        if not missing:
            return manifest, sentences, sent_vecs
        log.warning("index read incomplete for %d paper(s) (attempt %d)", len(missing), attempt + 1)
    raise IndexCorrupt(
        f"the index at {store.location} lacks sentences of {len(missing)} paper(s), e.g. {missing[0]}; "
        "run `rag ingest --rebuild`"
    )
