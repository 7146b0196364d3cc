"""The index: Chroma collections (sentences, and papers = the manifest) plus persisted BM25.

The paper collection is the manifest: one record per paper with its content hash, kept
in the same store as the sentences, so a shared Chroma server shares it too. Sentence
ids carry the paper's hash; readers only accept sentences whose hash matches the
manifest, which makes the manifest upsert the commit point of an ingest: a crash before
it leaves invisible orphans (collected by the next ingest), never a half-visible paper.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import logging
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
from chromadb.api.collection_configuration import CreateCollectionConfiguration
from llama_index.core.schema import BaseNode, TextNode
from llama_index.core.vector_stores.utils import metadata_dict_to_node, node_to_metadata_dict
from llama_index.retrievers.bm25 import BM25Retriever
from llama_index.vector_stores.chroma import ChromaVectorStore

from rag.errors import IndexCorrupt
from rag.guard import FLAG_KEY, instruction_like
from rag.types import Paper

log = logging.getLogger(__name__)
# bm25s sets its own logger to DEBUG on import; its debug lines are noise on our stderr.
logging.getLogger("bm25s").setLevel(logging.WARNING)

_META_KEYS = ["paper_id", "sent_index", "start", "end", "label", "title", "source", "paper_hash"]


def paper_hash(paper: Paper, model: str) -> str:
    """Content hash deciding whether a paper must be re-embedded."""
    key = json.dumps([paper.abstract, paper.title, paper.authors, paper.url, paper.label, model])
    return hashlib.sha1(key.encode()).hexdigest()[:16]


def chunk_id(paper_id: str, phash: str, i: int) -> str:
    return f"{paper_id}::{phash}::{i}"


def sentence_node(paper: Paper, phash: str, i: int, start: int, end: int, text: str) -> TextNode:
    meta: dict[str, Any] = {
        "paper_id": paper.paper_id,
        "sent_index": i,
        "start": start,
        "end": end,
        "label": paper.label,
        "title": paper.title or "",
        "source": paper.source,
        "paper_hash": phash,
        # Corpus text is untrusted: a sentence that reads as an instruction to an assistant
        # is flagged here (reason, "" if clean) and never used as evidence.
        FLAG_KEY: instruction_like(paper.abstract[start:end]) or "",
    }
    return TextNode(
        id_=chunk_id(paper.paper_id, phash, i),
        text=text,
        metadata=meta,
        excluded_embed_metadata_keys=list(meta),
        excluded_llm_metadata_keys=list(meta),
    )


def paper_node(paper: Paper, phash: str, n_chunks: int) -> TextNode:
    meta: dict[str, Any] = {
        "paper_id": paper.paper_id,
        "source": paper.source,
        "position": paper.position,
        "label": paper.label,
        "title": paper.title or "",
        "authors": json.dumps(paper.authors or []),
        "url": paper.url or "",
        "paper_hash": phash,
        "n_chunks": n_chunks,
    }
    return TextNode(
        id_=paper.paper_id,
        text=paper.abstract,
        metadata=meta,
        excluded_embed_metadata_keys=list(meta),
        excluded_llm_metadata_keys=list(meta),
    )


def node_to_paper(node: TextNode) -> Paper:
    m = node.metadata
    return Paper(
        paper_id=m["paper_id"],
        source=m["source"],
        position=int(m["position"]),
        abstract=node.get_content(),
        label=m["label"],
        title=m.get("title") or None,
        authors=json.loads(m.get("authors") or "[]") or None,
        url=m.get("url") or None,
    )


class Store:
    """Chroma client and the two collections; nothing here embeds."""

    def __init__(
        self,
        home: Path,
        *,
        collection: str = "abstracts",
        chroma_url: str | None = None,
        chroma_token: str | None = None,
        hnsw: dict[str, int] | None = None,
    ) -> None:
        import chromadb
        from chromadb.config import Settings as ChromaSettings

        self.home = home
        self.name = collection
        chroma_settings = ChromaSettings(anonymized_telemetry=False, allow_reset=False)
        if chroma_url:
            from urllib.parse import urlparse

            u = urlparse(chroma_url)
            headers = {"Authorization": f"Bearer {chroma_token}"} if chroma_token else None
            self.client = chromadb.HttpClient(
                host=u.hostname or "127.0.0.1",
                port=u.port or (443 if u.scheme == "https" else 8000),
                ssl=u.scheme == "https",
                headers=headers,
                settings=chroma_settings,
            )
            self.location = chroma_url
        else:
            home.mkdir(parents=True, exist_ok=True)
            self.client = chromadb.PersistentClient(path=str(home / "chroma"), settings=chroma_settings)
            self.location = str((home / "chroma").resolve())
        cfg = cast(
            CreateCollectionConfiguration,
            {"hnsw": {"space": "cosine", **(hnsw or {"ef_search": 200, "ef_construction": 200, "max_neighbors": 32})}},
        )
        # embedding_function=None: Chroma's default one would download a model.
        self.sentences = self.client.get_or_create_collection(
            collection,
            configuration=cfg,
            embedding_function=None,  # type: ignore[arg-type]
        )
        self.papers = self.client.get_or_create_collection(
            f"{collection}_papers",
            configuration=cfg,
            embedding_function=None,  # type: ignore[arg-type]
        )
        self.vs_sentences = ChromaVectorStore(chroma_collection=self.sentences)
        self.vs_papers = ChromaVectorStore(chroma_collection=self.papers)

    # --- manifest -------------------------------------------------------------------
    def manifest(self) -> dict[str, TextNode]:
        """paper_id -> paper record (the committed state)."""
        got = self.papers.get(include=["documents", "metadatas"])
        out: dict[str, TextNode] = {}
        for pid, doc, meta in zip(got["ids"], got["documents"] or [], got["metadatas"] or [], strict=False):
            node = metadata_dict_to_node(dict(meta), text=doc)
            out[pid] = node  # type: ignore[assignment]
        return out

    def paper_embeddings(self, ids: list[str]) -> dict[str, list[float]]:
        if not ids:
            return {}
        got = self.papers.get(ids=ids, include=["embeddings"])
        return {i: list(e) for i, e in zip(got["ids"], rows(got["embeddings"]), strict=False)}

    def sentence_records(self, where: dict[str, Any] | None = None) -> list[TextNode]:
        return self.read_sentences(where)[0]

    def read_sentences(
        self, where: dict[str, Any] | None = None, *, with_vectors: bool = False, page: int = 20000
    ) -> tuple[list[TextNode], list[np.ndarray]]:
        """All sentence records (and their vectors), fetched in pages to bound memory spikes."""
        include: Any = ["documents", "metadatas", "embeddings"] if with_vectors else ["documents", "metadatas"]
        nodes: list[TextNode] = []
        vecs: list[np.ndarray] = []
        offset = 0
        while True:
            got = self.sentences.get(where=where, include=include, limit=page, offset=offset)  # type: ignore[arg-type]
            docs, metas = got["documents"] or [], got["metadatas"] or []
            nodes += [
                metadata_dict_to_node(dict(m), text=d)  # type: ignore[misc]
                for d, m in zip(docs, metas, strict=False)
            ]
            if with_vectors:
                vecs += [np.asarray(e, dtype=np.float32) for e in rows(got["embeddings"])]
            if len(got["ids"]) < page:
                return nodes, vecs
            offset += page

    def sentence_ids(self) -> list[str]:
        return list(self.sentences.get(include=[])["ids"])

    def embeddings_by_hash(self, phashes: list[str]) -> dict[tuple[str, int], tuple[str, list[float]]]:
        """Existing sentence vectors of papers with these hashes (reused, never re-embedded)."""
        out: dict[tuple[str, int], tuple[str, list[float]]] = {}
        if not phashes:
            return out
        where: Any = {"paper_hash": {"$in": phashes}}
        got = self.sentences.get(where=where, include=["embeddings", "documents", "metadatas"])
        for emb, doc, meta in zip(
            rows(got["embeddings"]), got["documents"] or [], got["metadatas"] or [], strict=False
        ):
            out[(str(meta["paper_hash"]), int(meta["sent_index"]))] = (doc or "", list(emb))  # type: ignore[arg-type]
        return out

    # --- writes -----------------------------------------------------------------------
    def add_sentences(self, nodes: list[TextNode], batch: int = 1000) -> None:
        for b in range(0, len(nodes), batch):
            part = nodes[b : b + batch]
            self.sentences.upsert(
                ids=[n.node_id for n in part],
                embeddings=cast(Any, [n.embedding for n in part]),
                documents=[n.get_content() for n in part],
                metadatas=[node_to_metadata_dict(n, remove_text=True, flat_metadata=True) for n in part],
            )

    def commit_papers(self, nodes: list[TextNode]) -> None:
        """Upsert paper records in one call: the commit point of an ingest."""
        if nodes:
            self.papers.upsert(
                ids=[n.node_id for n in nodes],
                embeddings=cast(Any, [n.embedding for n in nodes]),
                documents=[n.get_content() for n in nodes],
                metadatas=[node_to_metadata_dict(n, remove_text=True, flat_metadata=True) for n in nodes],
            )

    def delete_papers(self, ids: list[str]) -> None:
        if ids:
            self.papers.delete(ids=ids)

    def delete_sentences(self, ids: list[str], batch: int = 5000) -> None:
        for b in range(0, len(ids), batch):
            self.sentences.delete(ids=ids[b : b + batch])

    def count(self) -> tuple[int, int]:
        return self.papers.count(), self.sentences.count()

    def set_info(self, **info: Any) -> None:
        meta = dict(self.papers.metadata or {})
        meta.update({k: v for k, v in info.items() if v is not None})
        self.papers.modify(metadata=meta)

    def info(self) -> dict[str, Any]:
        return dict(self.papers.metadata or {})

    def stamp(self) -> str | None:
        """The committed manifest's stamp as the last writer recorded it: one cheap read,
        fresh from the store (another process or instance may have ingested)."""
        col = self.client.get_collection(f"{self.name}_papers", embedding_function=None)  # type: ignore[arg-type]
        value = (col.metadata or {}).get("stamp")
        return str(value) if value else None

    def record_stamp(self) -> str:
        """Recompute the stamp from the manifest and publish it for readers."""
        stamp = stamp_of(self.manifest())
        self.set_info(stamp=stamp)
        return stamp


def rows(x: Any) -> list[Any]:
    """Chroma returns embeddings as an array or a list (or None); never test them for truth."""
    return [] if x is None else list(x)


def stamp_of(manifest: dict[str, TextNode]) -> str:
    h = hashlib.sha1()
    for pid in sorted(manifest):
        h.update(f"{pid}:{manifest[pid].metadata['paper_hash']}\n".encode())
    return h.hexdigest()[:16]


@dataclass
class Snapshot:
    """A consistent, read-only view of the index used to answer questions."""

    stamp: str
    papers: dict[str, Paper]
    hashes: dict[str, str]
    sentences: dict[str, TextNode]
    bm25_sentences: BM25Retriever | None
    bm25_papers: BM25Retriever | None
    by_paper: dict[str, list[TextNode]] = field(default_factory=dict)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)  # sentence id -> unit vector
    paper_ids: list[str] = field(default_factory=list)  # row order of `centroids`
    centroids: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), dtype=np.float32))
    bm25_sentence_ids: list[str] = field(default_factory=list)  # document order inside BM25
    bm25_paper_ids: list[str] = field(default_factory=list)
    derived: dict[str, Any] = field(default_factory=dict)  # caches computed from this snapshot


_bm25_lock = threading.Lock()


def _bm25(nodes: list[TextNode], path: Path) -> BM25Retriever | None:
    if not nodes:
        return None
    if (path / "retriever.json").exists():
        try:
            return BM25Retriever.from_persist_dir(str(path))
        except Exception as e:  # a damaged cache is rebuilt, never trusted
            log.warning("rebuilding BM25 index at %s (%s)", path, e)
    tmp = path.with_name(path.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    # bm25s draws progress bars it has no switch for; they are noise on our stderr.
    with contextlib.redirect_stderr(io.StringIO()):
        retriever = BM25Retriever.from_defaults(nodes=list[BaseNode](nodes), similarity_top_k=min(100, len(nodes)))
        retriever.persist(str(tmp))
    shutil.rmtree(path, ignore_errors=True)
    tmp.rename(path)
    return retriever


def _incomplete(manifest: dict[str, TextNode], sentences: dict[str, TextNode]) -> list[str]:
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
    is off); BM25 is loaded from disk or rebuilt."""
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
        sentences: dict[str, TextNode] = {}
        sent_vecs: dict[str, np.ndarray] = {}
        for i, n in enumerate(records):
            if hashes.get(n.metadata["paper_id"]) == n.metadata["paper_hash"]:
                sentences[n.node_id] = n
                if vectors:
                    sent_vecs[n.node_id] = vecs[i]
        missing = _incomplete(manifest, sentences)
        if not missing:
            break
        # A concurrent writer's garbage collection can shift pages under us: read again.
        log.warning("index read incomplete for %d paper(s) (attempt %d)", len(missing), attempt + 1)
    else:
        raise IndexCorrupt(
            f"the index at {store.location} lacks sentences of {len(missing)} paper(s), e.g. {missing[0]}; "
            "run `rag ingest --rebuild`"
        )
    stamp = stamp_of(manifest)
    by_paper: dict[str, list[TextNode]] = {}
    for n in sorted(sentences.values(), key=lambda n: (n.metadata["paper_id"], int(n.metadata["sent_index"]))):
        by_paper.setdefault(n.metadata["paper_id"], []).append(n)
    base = home / "bm25" / f"{store.name}-{stamp}"
    sent_order, paper_order = sorted(sentences), sorted(manifest)
    with _bm25_lock:
        bm25_s = _bm25([sentences[k] for k in sent_order], base / "sentences")
        bm25_p = _bm25([manifest[k] for k in paper_order], base / "papers")
        # Older BM25 generations are dead weight once a newer one exists.
        for old in (home / "bm25").glob(f"{store.name}-*"):
            if old != base and not old.name.endswith(".tmp"):
                shutil.rmtree(old, ignore_errors=True)
    papers = {pid: node_to_paper(n) for pid, n in manifest.items()}
    centroids = np.zeros((0, 1), dtype=np.float32)
    if vectors and paper_order:
        emb = store.paper_embeddings(paper_order)
        centroids = np.asarray([emb[p] for p in paper_order], dtype=np.float32)
    return Snapshot(
        stamp,
        papers,
        hashes,
        sentences,
        bm25_s,
        bm25_p,
        by_paper,
        vectors=sent_vecs,
        paper_ids=paper_order,
        centroids=centroids,
        bm25_sentence_ids=sent_order,
        bm25_paper_ids=paper_order,
    )
