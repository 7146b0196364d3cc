"""The index: Chroma collections (sentences, and papers = the manifest) plus persisted BM25.

The paper collection is the manifest: one record per paper with its content hash, kept
in the same store as the sentences, so a shared Chroma server shares it too. Sentence
ids carry the paper's hash; readers only accept sentences whose hash matches the
manifest, which makes the manifest upsert the commit point of an ingest: a crash before
it leaves invisible orphans (collected by the next ingest), never a half-visible paper.
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from rag.index.chunks import Record

if TYPE_CHECKING:  # chromadb is imported when a store opens; llama-index only by writers
    from chromadb.api.collection_configuration import CreateCollectionConfiguration
    from llama_index.core.schema import TextNode

log = logging.getLogger(__name__)


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
        self.embedded = not chroma_url
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
        self._cfg = cast(
            "CreateCollectionConfiguration",
            {"hnsw": {"space": "cosine", **(hnsw or {"ef_search": 200, "ef_construction": 200, "max_neighbors": 32})}},
        )
        self._open_collections()

    def _open_collections(self) -> None:
        # embedding_function=None: Chroma's default one would download a model.
        self.sentences = self.client.get_or_create_collection(
            self.name,
            configuration=self._cfg,
            embedding_function=None,  # type: ignore[arg-type]
        )
        self.papers = self.client.get_or_create_collection(
            f"{self.name}_papers",
            configuration=self._cfg,
            embedding_function=None,  # type: ignore[arg-type]
        )

    def recreate(self) -> None:
        """Drop both collections and create them empty. Crash repair: deleting a collection
        never loads its vector files, which a killed writer may have left torn."""
        for c in (self.sentences, self.papers):
            self.client.delete_collection(c.name)
        self._open_collections()

    def put_records(self, records: list[Record], vectors: np.ndarray, *, papers: bool, batch: int = 1000) -> None:
        """Upsert stored records as they were read back (crash repair from the snapshot files)."""
        col = self.papers if papers else self.sentences
        vecs = np.asarray(vectors, dtype=np.float32)
        _upsert(
            col, [r.node_id for r in records], vecs, [r.text for r in records], [r.metadata for r in records], batch
        )

    # --- manifest -------------------------------------------------------------------
    def manifest(self) -> dict[str, Record]:
        """paper_id -> paper record (the committed state), in id order: Chroma returns
        records in write order, which depends on the index's history, and ties in ranking
        must not."""
        got = self.papers.get(include=["documents", "metadatas"])
        records = {
            pid: Record.from_chroma(pid, doc, meta)
            for pid, doc, meta in zip(got["ids"], got["documents"] or [], got["metadatas"] or [], strict=False)
        }
        return {pid: records[pid] for pid in sorted(records)}

    def paper_embeddings(self, ids: list[str]) -> dict[str, list[float]]:
        if not ids:
            return {}
        got = self.papers.get(ids=ids, include=["embeddings"])
        return {i: list(e) for i, e in zip(got["ids"], rows(got["embeddings"]), strict=False)}

    def read_sentences(
        self, where: dict[str, Any] | None = None, *, with_vectors: bool = False, page: int = 20000
    ) -> tuple[list[Record], list[np.ndarray]]:
        """All sentence records (and their vectors), fetched in pages to bound memory spikes."""
        include: Any = ["documents", "metadatas", "embeddings"] if with_vectors else ["documents", "metadatas"]
        nodes: list[Record] = []
        vecs: list[np.ndarray] = []
        offset = 0
        while True:
            got = self.sentences.get(where=where, include=include, limit=page, offset=offset)  # type: ignore[arg-type]
            docs, metas = got["documents"] or [], got["metadatas"] or []
            nodes += [Record.from_chroma(i, d, m) for i, d, m in zip(got["ids"], docs, metas, strict=False)]
            if with_vectors:
                vecs += [np.asarray(e, dtype=np.float32) for e in rows(got["embeddings"])]
            if len(got["ids"]) < page:
                order = sorted(range(len(nodes)), key=lambda i: nodes[i].node_id)  # see `manifest`
                return [nodes[i] for i in order], [vecs[i] for i in order] if with_vectors else vecs
            offset += page

    def sentence_ids(self) -> list[str]:
        return list(self.sentences.get(include=[])["ids"])

    def vectors_by_text(self, phashes: list[str], batch: int = 500) -> dict[str, list[float]]:
        """Stored sentence vectors of papers with these hashes, by sentence text (reused, never
        re-embedded: the caller passes only hashes made by the model it embeds with)."""
        out: dict[str, list[float]] = {}
        for b in range(0, len(phashes), batch):
            where: Any = {"paper_hash": {"$in": phashes[b : b + batch]}}
            got = self.sentences.get(where=where, include=["embeddings", "documents"])
            for emb, doc in zip(rows(got["embeddings"]), got["documents"] or [], strict=False):
                if doc:
                    out[doc] = list(emb)
        return out

    # --- writes -----------------------------------------------------------------------
    def add_sentences(self, nodes: list[TextNode], batch: int = 1000) -> None:
        _upsert(self.sentences, *_columns(nodes), batch)

    def commit_papers(self, nodes: list[TextNode]) -> None:
        """Upsert paper records in one call: the commit point of an ingest."""
        _upsert(self.papers, *_columns(nodes), batch=max(1, len(nodes)))

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


def stamp_of(manifest: dict[str, Record] | dict[str, TextNode]) -> str:
    h = hashlib.sha1()
    for pid in sorted(manifest):
        h.update(f"{pid}:{manifest[pid].metadata['paper_hash']}\n".encode())
    return h.hexdigest()[:16]


def _columns(nodes: list[TextNode]) -> tuple[list[str], list[Any], list[str], list[dict[str, Any]]]:
    """ids, embeddings, documents and flat metadata of nodes, as Chroma stores them."""
    from llama_index.core.vector_stores.utils import node_to_metadata_dict

    return (
        [n.node_id for n in nodes],
        [n.embedding for n in nodes],
        [n.get_content() for n in nodes],
        [node_to_metadata_dict(n, remove_text=True, flat_metadata=True) for n in nodes],
    )


def _upsert(col: Any, ids: list[str], vectors: Any, documents: list[str], metadatas: list[Any], batch: int) -> None:
    """Upsert in batches (Chroma caps one call's size)."""
    for b in range(0, len(ids), batch):
        end = b + batch
        col.upsert(
            ids=ids[b:end],
            embeddings=cast(Any, vectors[b:end]),
            documents=documents[b:end],
            metadatas=metadatas[b:end],
        )
