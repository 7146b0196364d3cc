"""Opening the store safely: damaged or partly deleted indexes are detected, never trusted.

Chroma reports a damaged database with its own errors, and a deleted database simply opens
empty, which would look like a fresh install (and `ask` would quietly re-index the shipped
corpus, losing the user's files). So every ingest leaves a small marker in RAG_HOME saying
what the index held; an index that has lost what the marker says is reported, with the
documented way out: `rag ingest --rebuild`.
"""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path
from typing import Any

from rag.errors import IndexCorrupt, StoreUnavailable
from rag.index.repair import WRITING, recover
from rag.index.store import Store

log = logging.getLogger(__name__)

MARKER = "index.json"
REBUILD = "run `rag ingest --rebuild` to index the corpus again"


def write_marker(store: Store, home: Path) -> None:
    papers, chunks = store.count()
    data = {"location": store.location, "collection": store.name, "papers": papers, "chunks": chunks}
    tmp = home / (MARKER + ".tmp")
    tmp.write_text(json.dumps(data), encoding="utf-8")
    tmp.replace(home / MARKER)  # atomic: a crash leaves the old marker or the new one


def read_marker(home: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((home / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def open_store(home: Path, **kw: Any) -> Store:
    """`Store(home, **kw)`, with damage and unreachable servers reported in one clear line."""
    url = kw.get("chroma_url")
    restored = recover(home, kw)  # a writer killed mid-write: before anything loads its files
    try:
        store = Store(home, **kw)
        papers, _ = store.count()
    except Exception as e:
        if url:
            detail = str(e)[:200]
            if kw.get("chroma_token"):  # a server may echo the token back in its error
                detail = detail.replace(str(kw["chroma_token"]), "***")
            raise StoreUnavailable(f"cannot use the Chroma server at {url} ({type(e).__name__}: {detail})") from None
        raise IndexCorrupt(
            f"the index at {home / 'chroma'} cannot be read ({type(e).__name__}: {e}); {REBUILD}"
        ) from None
    marker = read_marker(home)
    if (
        marker
        and marker.get("location") == store.location
        and marker.get("collection") == store.name
        and int(marker.get("papers") or 0) > 0
        and papers == 0
    ):
        raise IndexCorrupt(
            f"the index at {store.location} is empty but held {marker['papers']} papers (deleted or damaged); {REBUILD}"
        )
    if restored:
        write_marker(store, home)
    return store


def wipe_store(home: Path, **kw: Any) -> None:
    """Drop the index completely (the first step of `rag ingest --rebuild`), even when the
    store cannot be opened any more."""
    url = kw.get("chroma_url")
    if url:
        store = Store(home, **kw)
        for c in (store.sentences, store.papers):
            store.client.delete_collection(c.name)
    else:
        _forget_client(home / "chroma")
        shutil.rmtree(home / "chroma", ignore_errors=True)
    shutil.rmtree(home / "bm25", ignore_errors=True)
    shutil.rmtree(home / "snapshot", ignore_errors=True)  # its published stamp names a dropped index
    (home / MARKER).unlink(missing_ok=True)
    (home / WRITING).unlink(missing_ok=True)
    log.info("dropped the index in %s", url or home)


def _forget_client(path: Path) -> None:
    """Chroma keeps one client system per path per process; one whose files are deleted
    would fail every later call, so it is stopped and dropped (no public API for this)."""
    from chromadb.api.shared_system_client import SharedSystemClient

    system = SharedSystemClient._identifier_to_system.pop(str(path), None)
    if system is not None:
        try:
            system.stop()
        except Exception:  # already broken: it is being thrown away
            log.debug("stopping the old Chroma client failed", exc_info=True)
