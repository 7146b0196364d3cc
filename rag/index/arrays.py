"""The snapshot's records and vectors as plain files, one folder per manifest stamp, so a new
process (or a reload after another instance's ingest) reads a few files instead of every
sentence from Chroma.

`<home>/snapshot/<collection>-<stamp>/` holds `records.json` (ids, texts, metadata of papers
and sentences), `vectors.npy` (float32, one row per sentence, in `records.json`'s order) and
`centroids.npy` (one row per paper) and `stems.json` (each paper's content stems, for the
vocabulary). `meta.json` is written last and names every file's size
and SHA-1: a folder without it, or with a file that does not match it, is damaged or
partial, and is never read — the snapshot is rebuilt from the store instead. The vector
files are memory-mapped.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import threading
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from rag.index.chunks import Record

log = logging.getLogger(__name__)

FILES = ("records.json", "vectors.npy", "centroids.npy", "stems.json")
FORMAT = 6  # 3: content stems are stemmed twice (rag/text/normalize.py); 5: stems.json holds phrases; 6: accents folded


def folder(home: Path, collection: str, stamp: str) -> Path:
    return home / "snapshot" / f"{collection}-{stamp}"


def ready(home: Path, collection: str, stamp: str) -> bool:
    """Whether this stamp's files were written completely, in this format (their content is
    checked on load)."""
    try:
        meta = json.loads((folder(home, collection, stamp) / "meta.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and meta.get("format") == FORMAT


def publish(home: Path, collection: str, stamp: str) -> None:
    """Name `stamp` the committed one for readers that skip the store (the writer calls this,
    under the writer lock, once this stamp's files and BM25 are on disk)."""
    path = home / "snapshot" / f"{collection}.current"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_text(json.dumps({"stamp": stamp}), encoding="utf-8")
    tmp.replace(path)  # atomic: readers see the old stamp or the new one
    # Older stamps' array and BM25 folders go only now: until this stamp is published, the old
    # one is what readers load and what a crash repair restores from (pruning when the new
    # files were written lost them to a kill in between).
    keep = f"{collection}-{stamp}"
    for base in (path.parent, home / "bm25"):
        for old in base.glob(f"{collection}-*"):
            if old.name != keep and not old.name.endswith(".tmp"):
                shutil.rmtree(old, ignore_errors=True)


def published(home: Path, collection: str) -> str | None:
    """The stamp the last writer published, if any."""
    try:
        data = json.loads((home / "snapshot" / f"{collection}.current").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    stamp = data.get("stamp") if isinstance(data, dict) else None
    return stamp if isinstance(stamp, str) else None


def _sha1(path: Path) -> str:
    h = hashlib.sha1()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def save(
    home: Path,
    collection: str,
    stamp: str,
    papers: dict[str, Record],
    sentences: dict[str, Record],
    vectors: dict[str, np.ndarray],
    centroids: np.ndarray,
    stems: dict[str, list[str]] | None = None,
) -> None:
    """Write this stamp's files into a private folder, then rename it into place."""
    dest = folder(home, collection, stamp)
    if ready(home, collection, stamp):
        return
    dest.parent.mkdir(parents=True, exist_ok=True)
    # Private to this call: two threads of one process (an upload's ingest and a reader
    # building the same stamp) must not share a scratch folder.
    tmp = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".tmp", dir=dest.parent))
    sent_ids = list(sentences)
    data = {
        "papers": [[pid, r.text, r.metadata] for pid, r in papers.items()],
        "sentences": [[cid, sentences[cid].text, sentences[cid].metadata] for cid in sent_ids],
    }
    (tmp / "records.json").write_text(json.dumps(data), encoding="utf-8")
    dim = centroids.shape[1] if centroids.ndim == 2 and len(centroids) else 1
    matrix = np.stack([vectors[c] for c in sent_ids]).astype(np.float32) if sent_ids else np.zeros((0, dim))
    np.save(tmp / "vectors.npy", matrix.astype(np.float32))
    np.save(tmp / "centroids.npy", np.asarray(centroids, dtype=np.float32))
    (tmp / "stems.json").write_text(json.dumps(stems or {}), encoding="utf-8")
    meta = {
        "format": FORMAT,
        "stamp": stamp,
        "papers": len(papers),
        "sentences": len(sent_ids),
        "files": {n: {"size": (tmp / n).stat().st_size, "sha1": _sha1(tmp / n)} for n in FILES},
    }
    (tmp / "meta.json").write_text(json.dumps(meta), encoding="utf-8")  # last: the folder is complete
    if dest.exists() and not ready(home, collection, stamp):  # partial (a writer died) or an older format
        shutil.rmtree(dest, ignore_errors=True)
    try:
        tmp.rename(dest)
    except OSError:  # another process saved the same stamp first: theirs is as good
        shutil.rmtree(tmp, ignore_errors=True)


class Loaded(NamedTuple):
    """What answering reads of one stamp. From the store rather than these files, centroids,
    stems and the matrix are not read (None) and the loader computes them."""

    papers: dict[str, Record]
    sentences: dict[str, Record]
    vectors: dict[str, np.ndarray]  # by sentence id: rows of `matrix`
    centroids: np.ndarray | None
    stems: dict[str, set[str]] | None  # each paper's stems and phrases
    matrix: np.ndarray | None  # one row per sentence, in `sentences` order


def load(home: Path, collection: str, stamp: str) -> Loaded | None:
    """This stamp's `Loaded` arrays, or None when the folder is missing, partial or damaged
    (then it is removed, and the caller rebuilds)."""
    base = folder(home, collection, stamp)
    if not (base / "meta.json").exists():
        return None
    try:
        return _read(base, stamp)
    except Exception as e:  # any mismatch: never half-read, rebuild
        log.warning("snapshot files at %s are damaged (%s): rebuilding them", base, e)
        shutil.rmtree(base, ignore_errors=True)
        return None


def _read(base: Path, stamp: str) -> Loaded:
    meta: dict[str, Any] = json.loads((base / "meta.json").read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT or meta.get("stamp") != stamp:
        raise ValueError("another format or stamp")
    for name in FILES:
        want = meta["files"][name]
        path = base / name
        if path.stat().st_size != want["size"] or _sha1(path) != want["sha1"]:
            raise ValueError(f"{name} does not match meta.json")
    data = json.loads((base / "records.json").read_text(encoding="utf-8"))
    papers = {pid: Record(pid, text, meta_) for pid, text, meta_ in data["papers"]}
    sentences = {cid: Record(cid, text, meta_) for cid, text, meta_ in data["sentences"]}
    matrix = np.load(base / "vectors.npy", mmap_mode="r")
    centroids = np.load(base / "centroids.npy", mmap_mode="r")
    if len(papers) != meta["papers"] or len(sentences) != meta["sentences"] or len(matrix) != len(sentences):
        raise ValueError("counts do not match meta.json")
    if len(centroids) != len(papers):
        raise ValueError("centroid rows do not match the papers")
    vectors = {cid: matrix[i] for i, cid in enumerate(sentences)}
    stems = {pid: set(v) for pid, v in json.loads((base / "stems.json").read_text(encoding="utf-8")).items()}
    return Loaded(papers, sentences, vectors, centroids, stems, matrix)
