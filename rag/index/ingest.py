"""Ingest: corpus files -> sentence chunks -> embeddings -> Chroma + BM25, incrementally."""

from __future__ import annotations

import logging
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from pydantic import BaseModel, Field

from rag.corpus.reader import CorpusError, corpus_files, read_corpus_file
from rag.index.arrays import publish
from rag.index.arrays import ready as arrays_ready
from rag.index.chunks import Chunk, Record, content_hash, paper_node, parse_chunk_id, sentence_node, split_chunks
from rag.index.file_records import confirm_unchanged, known_hashes, record_files, unchanged_candidates
from rag.index.health import write_marker
from rag.index.loading import bm25_ready, load_snapshot
from rag.index.plan import Plan, plan_changes, prune, reusable_hashes
from rag.index.repair import writer_lock, writing
from rag.index.store import Store, stamp_of
from rag.models.embed import Embedder
from rag.types import Paper

if TYPE_CHECKING:
    from llama_index.core.schema import TextNode

log = logging.getLogger(__name__)


class IngestReport(BaseModel):
    files: list[str] = Field(default_factory=list)
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    removed: int = 0
    chunks_embedded: int = 0
    chunks_reused: int = 0
    papers: int = 0
    chunks: int = 0
    seconds: float = 0.0
    errors: list[str] = Field(default_factory=list)


def _progress_bar(total: int, enabled: bool):  # type: ignore[no-untyped-def]
    from tqdm import tqdm

    return tqdm(total=total, unit="chunk", desc="embedding", disable=not enabled or total == 0, file=sys.stderr)


def ingest(
    paths: list[Path],
    *,
    store: Store,
    embedder: Embedder,
    home: Path,
    progress: bool | None = None,
    prune_missing_sources: bool = False,
) -> IngestReport:
    """Make the index hold exactly the current papers of each given file.

    Unchanged papers are skipped, changed ones re-embedded (reusing vectors of identical
    content), papers gone from a file are deleted. Bad files are reported and skipped.
    Steps: parse -> plan -> embed -> build chunks -> commit.
    """
    t0 = time.perf_counter()
    report = IngestReport()
    progress = sys.stderr.isatty() if progress is None else progress
    files = list_files(paths, report)
    maybe_same, prints = unchanged_candidates(files, home, embedder.name)
    parsed = parse_files([f for f in files if f not in maybe_same], report)
    with writer_lock(home), writing(home, store.name, embedded=store.embedded):
        manifest = store.manifest()
        kept = confirm_unchanged(maybe_same, manifest, home)
        report.unchanged += sum(kept.values())
        report.files += [str(f) for f in maybe_same if f.stem in kept]
        parsed.update(parse_files([f for f in maybe_same if f.stem not in kept], report))
        plan = plan_changes(
            parsed, manifest, embedder.name, lambda p: split_chunks(p, embedder), known_hashes(home, embedder.name)
        )
        if prune_missing_sources:
            prune(plan, manifest, set(parsed) | set(kept))
        _count(report, plan)
        reuse = store.vectors_by_text(reusable_hashes(plan, manifest, embedder.name))
        vecs = embed_new(plan.new, reuse, embedder, report, progress)
        sentence_nodes, paper_nodes = build_nodes(plan.new, reuse, vecs, embedder.name)
        commit(store, home, manifest, sentence_nodes, paper_nodes, plan.removed, embedder.name)
        record_files(home, files, prints, plan.hashes, embedder.name)
        report.removed = len(plan.removed)
        report.papers, report.chunks = store.count()
        write_marker(store, home)
    order = {str(f): i for i, f in enumerate(files)}
    report.files.sort(key=lambda f: order.get(f, len(order)))  # the files' order, parsed or not
    report.seconds = round(time.perf_counter() - t0, 3)
    return report


def _count(report: IngestReport, plan: Plan) -> None:
    report.added += plan.added
    report.updated += plan.updated
    report.unchanged += plan.unchanged
    report.errors += plan.errors


def list_files(paths: list[Path], report: IngestReport) -> list[Path]:
    try:
        return corpus_files(paths)
    except CorpusError as e:
        report.errors.append(str(e))
        return []


def parse_files(files: list[Path], report: IngestReport) -> dict[str, list[Paper]]:
    """Papers per file stem; bad files are reported and skipped."""
    parsed: dict[str, list[Paper]] = {}
    for f in files:
        try:
            papers = read_corpus_file(f)
        except CorpusError as e:
            report.errors.append(str(e))
            continue
        except OSError as e:
            report.errors.append(f"{f}: cannot read ({e.strerror})")
            continue
        if f.stem in parsed:
            report.errors.append(f"{f}: another file with stem {f.stem!r} is in the same ingest")
            continue
        parsed[f.stem] = papers
        report.files.append(str(f))
    return parsed


_Chunked = list[tuple[Paper, str, list[Chunk]]]


def embed_new(
    chunked: _Chunked, reuse: dict[str, list[float]], embedder: Embedder, report: IngestReport, progress: bool
) -> np.ndarray:
    """Embed the chunks whose vectors cannot be reused, in plan order."""
    todo = [text for _, _, chunks in chunked for _, _, text in chunks if text not in reuse]
    with _progress_bar(len(todo), progress) as bar:
        vecs = embedder.embed(todo, progress=bar.update) if todo else np.zeros((0, 1), dtype=np.float32)
    report.chunks_embedded = len(todo)
    report.chunks_reused = sum(len(c) for _, _, c in chunked) - len(todo)
    return vecs


def build_nodes(
    chunked: _Chunked, reuse: dict[str, list[float]], vecs: np.ndarray, model: str
) -> tuple[list[TextNode], list[TextNode]]:
    """Sentence nodes with their vectors, and paper nodes with their unit centroid."""
    sentence_nodes: list[TextNode] = []
    paper_nodes: list[TextNode] = []
    k = 0
    for p, h, chunks in chunked:
        pvecs = []
        for i, (start, end, text) in enumerate(chunks):
            node = sentence_node(p, h, i, start, end, text)
            if text in reuse:
                node.embedding = reuse[text]
            else:
                node.embedding = vecs[k].tolist()
                k += 1
            pvecs.append(node.embedding)
            sentence_nodes.append(node)
        centroid = np.mean(np.asarray(pvecs, dtype=np.float32), axis=0)
        pn = paper_node(p, h, len(chunks), content_hash(p, model))
        pn.embedding = (centroid / (np.linalg.norm(centroid) or 1.0)).tolist()
        paper_nodes.append(pn)
    return sentence_nodes, paper_nodes


def commit(
    store: Store,
    home: Path,
    manifest: dict[str, Record],
    sentence_nodes: list[TextNode],
    paper_nodes: list[TextNode],
    removed: list[str],
    model: str,
) -> None:
    """Write in crash-safe order: sentences first (invisible until committed), then the
    manifest (the commit), then garbage (stale or orphaned sentences)."""
    store.add_sentences(sentence_nodes)
    store.commit_papers(paper_nodes)
    store.delete_papers(removed)
    changed = bool(paper_nodes or removed)
    live = store.manifest() if changed else manifest
    garbage = collect_garbage(store, live)
    stamp = stamp_of(live)
    store.set_info(last_ingest=datetime.now(UTC).isoformat(timespec="seconds"), model=model)
    if changed or garbage or store.stamp() != stamp:
        store.set_info(stamp=stamp)
    if changed or garbage or not bm25_ready(home, store.name, stamp) or not arrays_ready(home, store.name, stamp):
        load_snapshot(store, home)  # builds and persists BM25 and the array files for readers
    publish(home, store.name, stamp)  # for readers that skip the store (always: repairs a crash's gap)
    # An unchanged corpus costs one manifest read and one id listing, nothing more.


def collect_garbage(store: Store, manifest: dict[str, Record] | None = None) -> int:
    """Delete sentences whose paper is gone or whose hash is not the committed one."""
    live = {pid: str(n.metadata["paper_hash"]) for pid, n in (manifest or store.manifest()).items()}
    stale = []
    for cid in store.sentence_ids():
        pid, h, _ = parse_chunk_id(cid)
        if live.get(pid) != h:
            stale.append(cid)
    store.delete_sentences(stale)
    return len(stale)


def remove(targets: list[str], *, store: Store, home: Path) -> list[str]:
    """Delete papers by id, or every paper of a file (path or stem). Returns removed ids."""
    with writer_lock(home), writing(home, store.name, embedded=store.embedded):
        manifest = store.manifest()
        ids: list[str] = []
        for t in targets:
            stem = Path(t).stem if ("/" in t or t.endswith((".txt", ".jsonl"))) else t
            if t in manifest:
                ids.append(t)
            else:
                match = [pid for pid, n in manifest.items() if n.metadata["source"] == stem]
                if not match:
                    raise KeyError(f"no indexed paper or file named {t!r}")
                ids += match
        store.delete_papers(sorted(set(ids)))
        collect_garbage(store)
        stamp = store.record_stamp()
        load_snapshot(store, home)  # the new stamp's files, then published for readers
        publish(home, store.name, stamp)
        write_marker(store, home)
    return sorted(set(ids))
