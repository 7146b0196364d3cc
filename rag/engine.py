"""Wiring: one object per process holding the store, the embedder and the retriever."""

from __future__ import annotations

import logging
from functools import cached_property
from pathlib import Path

from rag.embed import Embedder, SentenceTransformerEmbedder
from rag.index import Store
from rag.ingest import IngestReport, ingest
from rag.retrieve import Retriever
from rag.settings import Settings

log = logging.getLogger(__name__)


class Engine:
    """Loads lazily; pass fakes (embedder, store) in tests."""

    def __init__(self, settings: Settings | None = None, *, embedder: Embedder | None = None) -> None:
        self.settings = settings or Settings()
        self._embedder = embedder

    @cached_property
    def embedder(self) -> Embedder:
        s = self.settings
        return self._embedder or SentenceTransformerEmbedder(
            s.model_path(), batch_size=s.embed_batch_size, device=s.embed_device
        )

    @cached_property
    def store(self) -> Store:
        s = self.settings
        return Store(
            Path(s.home),
            collection=s.collection,
            chroma_url=s.chroma_url,
            chroma_token=s.chroma_token.get_secret_value() if s.chroma_token else None,
            hnsw={"ef_search": s.hnsw_ef_search, "ef_construction": s.hnsw_ef_construction, "max_neighbors": s.hnsw_m},
        )

    @cached_property
    def retriever(self) -> Retriever:
        return Retriever(self.store, self.embedder, Path(self.settings.home))

    def ingest(self, paths: list[Path], *, progress: bool | None = None) -> IngestReport:
        report = ingest(
            paths, store=self.store, embedder=self.embedder, home=Path(self.settings.home), progress=progress
        )
        if "retriever" in self.__dict__:
            self.retriever.refresh(force=True)
        return report

    def warm(self) -> None:
        """Load the snapshot and the embedding model now, not inside the first answer."""
        _ = self.retriever.snapshot
        self.embedder.embed(["warm up"])

    def ensure_index(self) -> IngestReport | None:
        """Index the shipped corpus when the store is empty, so a new user just asks."""
        if self.store.count()[0] > 0:
            return None
        log.info("index is empty: indexing %s", self.settings.data_dir)
        return self.ingest([Path(self.settings.data_dir)])
