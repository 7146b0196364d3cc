"""One writer at a time, and crash repair of the embedded store.

Chroma writes its vector (HNSW) files in place: a writer killed mid-write can leave them torn,
and the next process to load them gets an error or a segfault, which no `try` can catch
(chromadb issues #5366, #5517). So a writer marks RAG_HOME while it works; a marker left
behind with no live writer means one died, and before anything reads those files the
collection is rebuilt from the last published snapshot (records and vectors, exactly what
that writer's predecessor committed). The next ingest then brings it up to date
incrementally, like after any other crash.
"""

from __future__ import annotations

import fcntl
import json
import logging
import shutil
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rag.index import arrays
from rag.index.store import Store

log = logging.getLogger(__name__)

LOCK = "ingest.lock"
WRITING = "writing.json"


@contextmanager
def writer_lock(home: Path, *, wait: bool = True) -> Iterator[None]:
    """One writer at a time per RAG_HOME (readers need no lock)."""
    home.mkdir(parents=True, exist_ok=True)
    with open(home / LOCK, "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            raise RuntimeError(f"another ingest is running on {home}") from None
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@contextmanager
def writing(home: Path, collection: str, *, embedded: bool) -> Iterator[None]:
    """Mark RAG_HOME while a writer (holding the lock) may touch the embedded store's files.
    The mark is removed only when the writer finishes normally."""
    if not embedded:  # a Chroma server keeps its own files
        yield
        return
    mark = home / WRITING
    mark.write_text(json.dumps({"collection": collection}), encoding="utf-8")
    yield
    mark.unlink(missing_ok=True)


def recover(home: Path, kw: dict[str, Any]) -> bool:
    """If a writer died while marking `home`, rebuild its collection from the published
    snapshot before anyone loads the store's vector files. True when records were restored."""
    mark = home / WRITING
    if kw.get("chroma_url") or not mark.exists():
        return False
    with open(home / LOCK, "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:  # the marking writer is alive: its mark is not a crash
            return False
        try:
            if not mark.exists():  # another process repaired it meanwhile
                return False
            restored = _restore(home, kw)
            mark.unlink(missing_ok=True)
            return restored
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def _restore(home: Path, kw: dict[str, Any]) -> bool:
    name = str(kw["collection"])
    stamp = arrays.published(home, name)
    loaded = arrays.load(home, name, stamp) if stamp else None
    store = Store(home, **kw)  # opening and listing collections never loads vector files
    store.recreate()
    _drop_orphan_segments(home / "chroma")
    if loaded is None:
        log.warning("an ingest into %s was interrupted before anything was published: starting empty", home)
        return False
    papers, sentences, _, centroids, _, matrix = loaded
    assert centroids is not None and matrix is not None  # the array files always hold both
    store.put_records(list(papers.values()), centroids, papers=True)
    store.put_records(list(sentences.values()), matrix, papers=False)
    store.set_info(stamp=stamp)
    log.warning(
        "an ingest into %s was interrupted mid-write: restored %d papers from the last published snapshot",
        home,
        len(papers),
    )
    return True


def _drop_orphan_segments(chroma: Path) -> None:
    """Delete the vector folders of dropped collections (Chroma leaves them behind). A folder
    is kept if Chroma's catalogue still lists its segment."""
    try:
        with sqlite3.connect(f"file:{chroma / 'chroma.sqlite3'}?mode=ro", uri=True) as db:
            live = {row[0] for row in db.execute("SELECT id FROM segments")}
    except sqlite3.Error:  # another layout: leave the folders alone
        log.debug("cannot list Chroma segments in %s", chroma, exc_info=True)
        return
    for d in chroma.iterdir():
        if d.is_dir() and len(d.name) == 36 and d.name.count("-") == 4 and d.name not in live:
            shutil.rmtree(d, ignore_errors=True)
