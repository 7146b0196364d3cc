"""A consistent, read-only view of the index (papers, sentences, vectors, BM25) for answering."""

from __future__ import annotations

import logging
import re
import shutil
import threading
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from rag.errors import IndexCorrupt
from rag.index import arrays
from rag.index.bm25 import Bm25Index, build_bm25, load_bm25
from rag.index.chunks import Record, node_to_paper
from rag.index.mentions import Mentions, naming_labels
from rag.index.store import Store, stamp_of
from rag.index.vocabulary import Vocabulary, paper_stems
from rag.text.normalize import content_stems, words
from rag.types import Paper

log = logging.getLogger(__name__)
# bm25s sets its own logger to DEBUG on import; its debug lines are noise on our stderr.
logging.getLogger("bm25s").setLevel(logging.WARNING)


@dataclass
class Snapshot:
    """A consistent, read-only view of the index used to answer questions."""

    stamp: str
    papers: dict[str, Paper]
    hashes: dict[str, str]
    sentences: dict[str, Record]
    bm25_sentences: Bm25Index | None
    bm25_papers: Bm25Index | None
    by_paper: dict[str, list[Record]] = field(default_factory=dict)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)  # sentence id -> unit vector
    paper_ids: list[str] = field(default_factory=list)  # row order of `centroids`
    centroids: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), dtype=np.float32))
    bm25_sentence_ids: list[str] = field(default_factory=list)  # document order inside BM25
    bm25_paper_ids: list[str] = field(default_factory=list)
    stems: dict[str, set[str]] | None = None  # each paper's content stems, when persisted
    matrix: np.ndarray | None = None  # the sentence vectors as rows, in `sentences` order, when persisted

    # What callers keep deriving from a snapshot, computed once per snapshot. The API stays in
    # chunk ids and plain values so the storage behind it can change.
    def quote(self, chunk_id: str) -> str:
        """The verbatim abstract text of a sentence chunk."""
        m = self.sentences[chunk_id].metadata
        return self.papers[m["paper_id"]].abstract[int(m["start"]) : int(m["end"])]

    def paper_quotes(self, paper_id: str) -> list[tuple[str, str]]:
        """(chunk id, verbatim sentence) of a paper's chunks, in order."""
        return [(n.node_id, self.quote(n.node_id)) for n in self.by_paper.get(paper_id, [])]

    @cached_property
    def mentions(self) -> Mentions:
        """Finds the papers a text names (labels, title heads, distinctive title words)."""
        return Mentions(self.papers, self.vocabulary, self.naming)

    @cached_property
    def naming(self) -> set[str]:
        """Papers whose label names them (see `mentions.naming_labels`)."""
        return naming_labels(self.papers)

    @cached_property
    def vocabulary(self) -> Vocabulary:
        return Vocabulary(self.papers, self.stems)

    @cached_property
    def dense_rows(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        """(sentence ids, their unit vectors as one matrix, each row's paper id) for exact
        dense search: the persisted matrix itself when there is one (memory-mapped, no copy)."""
        ids = list(self.vectors)
        if self.matrix is not None and len(self.matrix) == len(ids) and ids == list(self.sentences):
            matrix = self.matrix
        else:
            matrix = np.stack([self.vectors[i] for i in ids]) if ids else np.zeros((0, 1), dtype=np.float32)
        owner = np.asarray([self.sentences[i].metadata["paper_id"] for i in ids], dtype=object)
        return ids, np.asarray(matrix, dtype=np.float32), owner

    @cached_property
    def sentence_row(self) -> dict[str, int]:
        """Sentence id -> its row in `dense_rows`' matrix."""
        return {cid: i for i, cid in enumerate(self.dense_rows[0])}

    @cached_property
    def paper_rows(self) -> dict[str, np.ndarray]:
        """Paper id -> the matrix rows of its sentences, in the abstract's order: a paper's
        vectors in one indexing, not one memory-mapped row object per sentence."""
        row = self.sentence_row
        return {
            pid: np.asarray([row[n.node_id] for n in nodes if n.node_id in row], dtype=np.intp)
            for pid, nodes in self.by_paper.items()
        }

    def rows_of(self, ids: list[str]) -> np.ndarray:
        """The vectors of these sentences as rows (ids must have vectors)."""
        row = self.sentence_row
        return self.dense_rows[1][[row[i] for i in ids]]

    @cached_property
    def centroid_row(self) -> dict[str, int]:
        """Paper id -> its row in `centroids`."""
        return {pid: i for i, pid in enumerate(self.paper_ids)}

    @cached_property
    def sentence_owner(self) -> np.ndarray:
        """Paper id of each BM25 sentence document, in BM25 order."""
        return np.asarray([self.sentences[i].metadata["paper_id"] for i in self.bm25_sentence_ids], dtype=object)

    @cached_property
    def paper_owner(self) -> np.ndarray:
        return np.asarray(self.bm25_paper_ids, dtype=object)

    @cached_property
    def _label_table(self) -> tuple[dict[str, set[str]], dict[str, str]]:
        exact: dict[str, set[str]] = {}
        odd: dict[str, str] = {}
        for pid, p in self.papers.items():
            if pid in self.naming:
                if re.fullmatch(r"[\w-]+(?:\s+[\w-]+)*", p.label):
                    exact.setdefault(p.label, set()).add(pid)
                else:  # labels with other characters ("C++") keep the exact scan
                    odd[pid] = p.label
        return exact, odd

    @cached_property
    def _one_word_labels(self) -> set[str]:
        """One-word labels matched in any case, unless the word is common in the abstracts
        (with thousands of papers some paper coins "GAP"; "gap" in a question names nobody)."""
        df = self.vocabulary.df
        return {
            p.label.lower()
            for p in self.papers.values()
            if " " not in p.label and max((df.get(s, 0) for s in content_stems(p.label)), default=0) <= 2
        }

    def named_in(self, question: str) -> set[str]:
        """Papers whose label the question contains (case-sensitive, whole words), found by
        looking up the question's word n-grams in a table built once per snapshot."""
        exact, odd = self._label_table
        tokens = [(m.start(), m.end()) for m in re.finditer(r"[\w-]+", question)]
        found: set[str] = set()
        for i in range(len(tokens)):
            for j in range(i, min(i + 6, len(tokens))):
                found |= exact.get(question[tokens[i][0] : tokens[j][1]], set())
        return found | named_papers(question, odd)

    def names_any(self, question: str) -> bool:
        """Whether a word of the question is some paper's one-word label (any case)."""
        return bool(self._one_word_labels & set(words(question)))


def named_papers(question: str, labels: dict[str, str]) -> set[str]:
    """Papers whose label appears in the question as a whole word (case-sensitive)."""
    out = set()
    for pid, label in labels.items():
        if len(label) >= 3 and label in question and re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", question):
            out.add(pid)
    return out


_bm25_lock = threading.Lock()


def _bm25(nodes: list[Record], path: Path) -> Bm25Index | None:
    if not nodes:
        return None
    if (path / "retriever.json").exists():
        try:
            return load_bm25(path, len(nodes))
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
    manifest, sentences, sent_vecs, cached_centroids, stems, matrix = _read_any(store, home, vectors)
    stamp = stamp_of(manifest)
    paper_order = sorted(manifest)
    centroids = np.zeros((0, 1), dtype=np.float32) if cached_centroids is None else cached_centroids
    if vectors and paper_order and cached_centroids is None:
        emb = store.paper_embeddings(paper_order)
        centroids = np.asarray([emb[p] for p in paper_order], dtype=np.float32)
        stems = {pid: paper_stems(node_to_paper(n)) for pid, n in manifest.items()}
        listed = {pid: sorted(v) for pid, v in stems.items()}
        arrays.save(home, store.name, stamp, manifest, sentences, sent_vecs, centroids, listed)
    return _assemble(home, store.name, stamp, manifest, sentences, sent_vecs, centroids, stems, matrix)


def load_published(home: Path, collection: str) -> Snapshot | None:
    """The snapshot of the stamp the last writer published, from its files alone (no store
    opened: a cold `rag ask` skips importing Chroma), or None when they are not all there."""
    stamp = arrays.published(home, collection)
    if stamp is None or not bm25_ready(home, collection, stamp):
        return None
    loaded = arrays.load(home, collection, stamp)
    if loaded is None:
        return None
    manifest, sentences, sent_vecs, centroids, stems, matrix = loaded
    if stamp_of(manifest) != stamp:
        return None
    return _assemble(home, collection, stamp, manifest, sentences, sent_vecs, centroids, stems, matrix)


def _assemble(
    home: Path,
    collection: str,
    stamp: str,
    manifest: dict[str, Record],
    sentences: dict[str, Record],
    sent_vecs: dict[str, np.ndarray],
    centroids: np.ndarray,
    stems: dict[str, set[str]] | None,
    matrix: np.ndarray | None,
) -> Snapshot:
    """The snapshot of these records and vectors, with this stamp's BM25 (loaded or built;
    older generations are removed when a newer stamp is published, see `arrays.publish`)."""
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
        vectors=sent_vecs,
        paper_ids=paper_order,
        centroids=centroids,
        bm25_sentence_ids=sent_order,
        bm25_paper_ids=paper_order,
        stems=stems,
        matrix=matrix,
    )


def _read_any(
    store: Store, home: Path, vectors: bool
) -> tuple[
    dict[str, Record],
    dict[str, Record],
    dict[str, np.ndarray],
    np.ndarray | None,
    dict[str, set[str]] | None,
    np.ndarray | None,
]:
    """Manifest, sentences, vectors and (from array files only) centroids and stems. The manifest is
    always read from the store: its stamp names the files, so they can never be stale."""
    if vectors:
        try:
            manifest = store.manifest()
        except Exception:  # reported with the documented way out by `_read_committed`
            manifest = None
        cached = arrays.load(home, store.name, stamp_of(manifest)) if manifest else None
        # Fewer stored sentences than the files list means the store lost some (extra ones are
        # an ingest in progress): the full read below reports it instead of answering past it.
        if manifest and cached is not None and store.count()[1] >= len(cached[1]):
            _, sentences, sent_vecs, centroids, stems, matrix = cached
            return manifest, sentences, sent_vecs, centroids, stems, matrix
    manifest, sentences, sent_vecs = _read_committed(store, vectors)
    return manifest, sentences, sent_vecs, None, None, None


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
