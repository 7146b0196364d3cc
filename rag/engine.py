"""The front door: one object per process holding the store, the embedder, the retriever and
the LLM clients; `Engine.ask` answers a question with any backend."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import cached_property
from pathlib import Path
from typing import Any

from rag.answer.entail import EntailmentJudge
from rag.answer.pipeline import ask as pipeline_ask
from rag.errors import BackendUnavailable
from rag.index.arrays import published
from rag.index.ingest import IngestReport, ingest
from rag.index.store import Store
from rag.models.embed import Embedder, SentenceTransformerEmbedder
from rag.models.llm import ChatLLM
from rag.retrieval.retriever import Retriever
from rag.settings import Settings
from rag.types import Answer, Paper, Query

log = logging.getLogger(__name__)


class Engine:
    """Loads lazily; pass fakes (embedder, store) in tests."""

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        embedder: Embedder | None = None,
        llms: dict[str, ChatLLM] | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self._embedder = embedder
        self._llms: dict[str, ChatLLM] = dict(llms or {})
        self._llm_lock = threading.Lock()

    @cached_property
    def embedder(self) -> Embedder:
        s = self.settings
        return self._embedder or SentenceTransformerEmbedder(
            s.model_path(),
            batch_size=s.embed_batch_size,
            device=s.embed_device,
            backend=s.embed_backend,
            cache_dir=Path(s.home) / "models",
        )

    @cached_property
    def store(self) -> Store:
        s = self.settings
        from rag.index.health import open_store

        return open_store(Path(s.home), **s.store_options())

    @cached_property
    def retriever(self) -> Retriever:
        s = self.settings
        # An embedded store's writers run on this machine and publish each snapshot they
        # commit: a reader takes it without opening Chroma. A server may change from anywhere.
        return Retriever(
            lambda: self.store, self.embedder, Path(s.home), collection=s.collection, published=not s.chroma_url
        )

    def ingest(self, paths: list[Path], *, progress: bool | None = None) -> IngestReport:
        report = ingest(
            paths, store=self.store, embedder=self.embedder, home=Path(self.settings.home), progress=progress
        )
        if "retriever" in self.__dict__:
            self.retriever.refresh(force=True)
        return report

    def llm(self, backend: str) -> ChatLLM | None:
        """The LLM for a backend, created once per process (None for extractive)."""
        if backend == "extractive":
            return None
        s = self.settings
        with self._llm_lock:
            if backend not in self._llms:
                if backend == "local":
                    from rag.models.llm import LocalLLM

                    self._llms[backend] = LocalLLM(
                        s.llm_model_path, chat_format=s.llm_chat_format, threads=s.llm_threads, n_ctx=s.llm_n_ctx
                    )
                elif backend == "openai":
                    if not (s.llm_base_url and s.llm_model):
                        raise BackendUnavailable("the openai backend needs RAG_LLM_BASE_URL and RAG_LLM_MODEL")
                    from rag.models.llm import OpenAICompatLLM

                    key = s.llm_api_key.get_secret_value() if s.llm_api_key else None
                    self._llms[backend] = OpenAICompatLLM(
                        s.llm_base_url, s.llm_model, key, timeout=s.llm_timeout, max_retries=s.llm_max_retries
                    )
                else:
                    raise BackendUnavailable(f"unknown backend {backend!r}")
        return self._llms[backend]

    def llm_options(self) -> dict[str, Any]:
        s = self.settings
        opts: dict[str, Any] = {
            "max_tokens": s.llm_max_tokens,
            "temperature": s.llm_temperature,
            "timeout": s.llm_timeout,
        }
        if s.verify_llm:
            opts["entail"] = self.entailment_judge()
        return opts

    def entailment_judge(self) -> EntailmentJudge | None:
        """The LLM judge of RAG_VERIFY_LLM (the openai endpoint), or None when it is off or
        no endpoint is configured."""
        s = self.settings
        if not s.verify_llm:
            return None
        if not (s.llm_base_url and s.llm_model):
            log.warning("RAG_VERIFY_LLM needs RAG_LLM_BASE_URL and RAG_LLM_MODEL; checking with the rules only")
            return None
        llm = self.llm("openai")
        return EntailmentJudge(llm, timeout=s.llm_timeout) if llm else None

    def available_backends(self) -> list[str]:
        return self.settings.available_backends()

    @property
    def papers(self) -> dict[str, Paper]:
        """The indexed papers of the current snapshot, by id."""
        return self.retriever.snapshot.papers

    def ask(
        self,
        question: str,
        *,
        backend: str | None = None,
        history: list[dict[str, object]] | None = None,
        top_k: int = 5,
        papers: list[str] | None = None,
        files: list[str] | None = None,
        explain: bool = False,
        cache: bool = True,
        on_sentence: Callable[[str], None] | None = None,
    ) -> Answer:
        """Answer a question: the one entry point of the CLI, the app, eval and bench."""
        backend = backend or self.settings.backend
        query = Query(
            question=question, history=history, top_k=top_k, papers=papers, files=files, explain=explain, cache=cache
        )
        return pipeline_ask(
            query,
            backend=backend,
            retriever=self.retriever,
            llm=self.llm(backend),
            llm_options=self.llm_options(),
            on_sentence=on_sentence,
        )

    def warm(self) -> None:
        """Load the snapshot and the embedding model now, not inside the first answer."""
        _ = self.retriever.snapshot
        self.embedder.embed(["warm up"])

    def ensure_index(self) -> IngestReport | None:
        """Index the shipped corpus when the store is empty, so a new user just asks."""
        s = self.settings
        if not s.chroma_url and published(Path(s.home), s.collection):  # indexed: no need to open the store
            return None
        if self.store.count()[0] > 0:
            return None
        log.info("index is empty: indexing %s", self.settings.data_dir)
        return self.ingest([Path(self.settings.data_dir)])
