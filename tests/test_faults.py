"""The `openai` backend against broken servers: each fault gives one clear message and the
extractive answer, within RAG_LLM_TIMEOUT, without retries stretching the wait.

The servers are real HTTP servers on 127.0.0.1 speaking (or failing to speak) the OpenAI
chat-completions protocol, streamed (server-sent events) or as one JSON body. Retrieval
uses the hashing embedder, so the whole file runs in seconds.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from rag.engine import Engine
from rag.models.deadline import with_deadline
from rag.models.llm import LLMError, OpenAICompatLLM
from rag.settings import Settings
from rag.types import Answer
from tests.conftest import SMALL, free_port, write_corpus
from tests.fakes import HashEmbedder

SECRET = "sk-test-SECRET-1234567890"
TIMEOUT = 2.0  # RAG_LLM_TIMEOUT in these tests
MARGIN = 1.5  # verification, fallback and thread hand-over on a busy shared 2-core machine
Q = "How many novel folds does FoldNet design?"
GOOD = "FoldNet designs 120 novel folds validated in the lab [1]."


# --- a misbehaving OpenAI-compatible server --------------------------------------------------
def sse(content: str | None = None, *, role: str | None = None, finish: str | None = None) -> bytes:
    delta = {k: v for k, v in {"role": role, "content": content}.items() if v is not None}
    chunk = {
        "id": "chatcmpl-1",
        "object": "chat.completion.chunk",
        "created": 0,
        "model": "fault",
        "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
    }
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


def completion(content: str) -> bytes:
    body = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "fault",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
    }
    return json.dumps(body).encode()


class FaultHandler(BaseHTTPRequestHandler):
    """`POST /v1/chat/completions` misbehaving as `server.mode` says; SSE when the request
    asks to stream, one JSON body otherwise (or always, with `server.plain`)."""

    server: FaultServer

    def log_message(self, format: str, *args: Any) -> None:  # keep pytest output clean
        pass

    def do_POST(self) -> None:
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.loads(raw or b"{}")
        self.server.requests.append({"path": self.path, "authorization": self.headers.get("Authorization")})
        stream = bool(body.get("stream")) and not self.server.plain
        getattr(self, f"fault_{self.server.mode}")(stream)

    do_GET = do_POST  # e.g. a Chroma client probing the server

    def reply(self, status: int, content_type: str, payload: bytes | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if payload is not None:
            self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if payload is not None:
            self.wfile.write(payload)

    def fault_ok(self, stream: bool) -> None:  # the control: a well-behaved server
        if stream:
            self.reply(200, "text/event-stream")
            pieces = [GOOD[i : i + 9] for i in range(0, len(GOOD), 9)]
            self.wfile.write(sse(role="assistant") + b"".join(sse(p) for p in pieces))
            self.wfile.write(sse(finish="stop") + b"data: [DONE]\n\n")
        else:
            self.reply(200, "application/json", completion(GOOD))

    def fault_hang(self, stream: bool) -> None:  # accepts, reads the request, never answers
        self.server.stop.wait(60)

    def fault_http500(self, stream: bool) -> None:
        # A careless server that echoes the request's credentials back in its error body.
        creds = [v for k, v in self.headers.items() if k.lower() in ("authorization", "x-chroma-token")]
        echo = "internal error; request had " + " ".join(creds)
        self.reply(500, "application/json", json.dumps({"error": {"message": echo}}).encode())

    def fault_badjson(self, stream: bool) -> None:
        if stream:
            self.reply(200, "text/event-stream")
            self.wfile.write(b'data: {"id": "chatcmpl-1", "choices": [{"delta": {"content": "Fold\n\n')
        else:
            self.reply(200, "application/json", b'{"id": "chatcmpl-1", "choices": [')

    def fault_empty(self, stream: bool) -> None:
        if stream:
            self.reply(200, "text/event-stream")
            self.wfile.write(sse(role="assistant") + sse("") + sse(finish="stop") + b"data: [DONE]\n\n")
        else:
            self.reply(200, "application/json", completion(""))

    def fault_forever(self, stream: bool) -> None:
        # Tokens that never end (a degenerate repetition loop ignoring max_tokens), or a
        # JSON body that never completes.
        self.reply(200, "text/event-stream" if stream else "application/json")
        try:
            while not self.server.stop.is_set():
                self.wfile.write(sse("and so on ") if stream else b" ")
                self.wfile.flush()
                time.sleep(0.01)
        except OSError:  # the client hung up: what a deadline should make it do
            self.server.hung_up.set()


class FaultServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, mode: str, *, plain: bool = False) -> None:
        super().__init__(("127.0.0.1", 0), FaultHandler)
        self.mode = mode
        self.plain = plain
        self.requests: list[dict[str, Any]] = []
        self.stop = threading.Event()
        self.hung_up = threading.Event()
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def close(self) -> None:
        self.stop.set()
        self.shutdown()
        self.server_close()


@contextmanager
def fault_server(mode: str, *, plain: bool = False) -> Iterator[str]:
    """The base URL of a running fault server ("closed": a port nobody listens on)."""
    if mode == "closed":
        yield f"http://127.0.0.1:{free_port()}/v1"
        return
    server = FaultServer(mode, plain=plain)
    try:
        yield server.url
    finally:
        server.close()


# --- the index and the reference answer ------------------------------------------------------
def build_index(root: Path) -> Path:
    """The small corpus indexed with the hashing embedder; returns RAG_HOME."""
    corpus = write_corpus(root / "corpus", "small", SMALL)
    Engine(Settings(home=root / "home", data_dir=root / "corpus"), embedder=HashEmbedder()).ingest([corpus])
    return root / "home"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_index(tmp_path_factory.mktemp("faults"))


def engine_for(home: Path, url: str, **llm: Any) -> Engine:
    settings = Settings(
        home=home,
        llm_base_url=url,
        llm_model="fault-model",
        llm_api_key=SECRET,  # type: ignore[arg-type]
        llm_timeout=llm.pop("timeout", TIMEOUT),
        llm_max_retries=llm.pop("max_retries", 1),
        **llm,
    )
    engine = Engine(settings, embedder=HashEmbedder())
    # Load the index and the client now: only the answer is timed, as on a warm server.
    engine.ask(Q)
    engine.llm("openai")
    return engine


def ask_openai(engine: Engine, question: str = Q) -> tuple[Answer, list[str], float]:
    released: list[str] = []
    t0 = time.perf_counter()
    a = engine.ask(question, backend="openai", on_sentence=released.append)
    return a, released, time.perf_counter() - t0


def assert_extractive_fallback(engine: Engine, a: Answer, released: list[str]) -> None:
    ref = engine.ask(Q)
    assert not ref.refused and "120" in ref.answer
    assert a.answer == ref.answer and a.citations == ref.citations and not a.refused
    assert a.answer_source == "fallback" and a.backend == "openai"
    assert released == ref.answer.splitlines()  # the user still gets the answer streamed
    assert a.backend_error and "\n" not in a.backend_error and "Traceback" not in a.backend_error
    assert SECRET not in a.model_dump_json()


# --- the faults ----------------------------------------------------------------------------
FAULTS = [
    # (mode, server ignores "stream" and sends one JSON body, expected message)
    ("closed", False, r"^could not connect to the LLM server at http://127\.0\.0\.1:\d+/v1$"),
    ("hang", False, r"^the LLM (sent nothing|server at \S+ did not answer) within 2s"),
    ("http500", False, r"^the LLM server at \S+ answered HTTP 500: internal error; request had Bearer \*\*\*"),
    ("badjson", False, r"^the LLM server at \S+ sent an invalid response \(JSONDecodeError\)$"),
    ("badjson", True, r"^the LLM server at \S+ sent no completion stream$"),
    ("empty", False, r"^the LLM returned an empty answer$"),
    ("empty", True, r"^the LLM server at \S+ sent no completion stream$"),
    ("forever", False, r"^the LLM did not finish within 2s \(RAG_LLM_TIMEOUT\)$"),
    ("forever", True, r"^the LLM sent nothing within 2s \(RAG_LLM_TIMEOUT\)$"),
]


@pytest.mark.parametrize(
    ("mode", "plain", "message"), FAULTS, ids=[f"{m}{'-plain' if p else ''}" for m, p, _ in FAULTS]
)
def test_fault_gives_message_and_extractive_answer_in_time(home: Path, mode: str, plain: bool, message: str) -> None:
    with fault_server(mode, plain=plain) as url:
        engine = engine_for(home, url)
        a, released, elapsed = ask_openai(engine)
        print(f"\n{mode}{' (plain JSON)' if plain else ''}: {elapsed:.2f}s of {TIMEOUT:g}s: {a.backend_error}")
        assert_extractive_fallback(engine, a, released)
        assert re.search(message, a.backend_error or ""), a.backend_error
        assert elapsed < TIMEOUT + MARGIN


def test_control_well_behaved_server_answers_through_the_llm(home: Path) -> None:
    # Proves the fault server speaks the real protocol: the faults above are the only difference.
    for plain, source in [(False, "llm"), (True, "fallback")]:
        with fault_server("ok", plain=plain) as url:
            a, released, _ = ask_openai(engine_for(home, url))
            assert a.answer_source == source
            if not plain:
                assert a.backend_error is None and released == [
                    "FoldNet designs 120 novel folds validated in the lab. [1]"
                ]


def test_endless_stream_is_closed_after_the_deadline(home: Path) -> None:
    server = FaultServer("forever")
    try:
        a, _, elapsed = ask_openai(engine_for(home, server.url))
        assert a.answer_source == "fallback" and elapsed < TIMEOUT + MARGIN
        # The worker hangs up on the server instead of reading tokens in the background.
        assert server.hung_up.wait(2.0)
        deadline = time.monotonic() + 2.0
        while any(t.name == "llm-stream" for t in threading.enumerate()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(t.name == "llm-stream" for t in threading.enumerate())
    finally:
        server.close()


def test_retries_stay_within_the_budget(home: Path) -> None:
    # A hung server: the first attempt uses the whole budget, so max_retries=5 adds no wait.
    server = FaultServer("hang")
    try:
        a, _, elapsed = ask_openai(engine_for(home, server.url, max_retries=5))
        assert a.backend_error and elapsed < TIMEOUT + MARGIN
        assert len(server.requests) == 1
    finally:
        server.close()
    # HTTP 500s are retried with backoff (0.5 s, 1 s, …) only while the budget lasts.
    server = FaultServer("http500")
    try:
        a, _, elapsed = ask_openai(engine_for(home, server.url, max_retries=5))
        assert a.backend_error and "HTTP 500" in a.backend_error and elapsed < TIMEOUT + MARGIN
        assert 2 <= len(server.requests) <= 3, server.requests
    finally:
        server.close()
    # No retries configured: exactly one request.
    server = FaultServer("http500")
    try:
        ask_openai(engine_for(home, server.url, max_retries=0))
        assert len(server.requests) == 1
    finally:
        server.close()


def test_openai_client_alone_keeps_its_budget() -> None:
    # Without the caller's deadline (e.g. another caller of the class), the backend's own
    # budget still ends a hung request: retries included, it never waits past `timeout`.
    server = FaultServer("hang")
    try:
        llm = OpenAICompatLLM(server.url, "m", SECRET, timeout=1.0, max_retries=3)
        t0 = time.perf_counter()
        with pytest.raises(LLMError, match=r"did not answer within 1s"):
            list(llm.stream([{"role": "user", "content": "hi"}], max_tokens=16, temperature=0.0))
        assert time.perf_counter() - t0 < 1.0 + MARGIN and len(server.requests) == 1
    finally:
        server.close()


def test_deadline_cuts_silent_and_endless_streams() -> None:
    release = threading.Event()

    def silent() -> Iterator[str]:  # blocked as in a socket read that never returns
        release.wait(5)
        yield "late"

    def chatty() -> Iterator[str]:
        while True:
            yield "and so on "

    t0 = time.perf_counter()
    with pytest.raises(LLMError, match=r"sent nothing within 0\.3s"):
        list(with_deadline(silent, deadline=t0 + 0.3, budget=0.3))
    assert time.perf_counter() - t0 < 0.3 + MARGIN
    release.set()
    got: list[str] = []
    with pytest.raises(LLMError, match=r"did not finish within 0\.3s"):
        for x in with_deadline(chatty, deadline=time.perf_counter() + 0.3, budget=0.3):
            got.append(x)
    assert got  # tokens arrived until the deadline


def test_writing_past_max_tokens_falls_back(home: Path) -> None:
    server = FaultServer("forever")
    try:
        engine = engine_for(home, server.url, llm_max_tokens=16, timeout=30.0)
        a, released, elapsed = ask_openai(engine)
        assert a.backend_error == "the LLM kept writing past max_tokens (16)" and elapsed < 10
        assert_extractive_fallback(engine, a, released)
    finally:
        server.close()


# --- the command line ------------------------------------------------------------------------
# `rag.cli.main` in a real subprocess, with the hashing embedder swapped in so no model loads.
BOOT = (
    "import sys, rag.engine, tests.fakes; "
    "rag.engine.SentenceTransformerEmbedder = lambda *a, **k: tests.fakes.HashEmbedder(); "
    "import rag.cli; sys.exit(rag.cli.main(sys.argv[1:]))"
)


def run_cli(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", BOOT, *args], env=env, capture_output=True, text=True, timeout=timeout)


def cli_env(tmp_path: Path, url: str, **extra: str) -> dict[str, str]:
    write_corpus(tmp_path / "corpus", "small", SMALL)
    return dict(
        os.environ,
        RAG_HOME=str(tmp_path / "home"),
        RAG_DATA_DIR=str(tmp_path / "corpus"),
        RAG_LLM_BASE_URL=url,
        RAG_LLM_MODEL="fault-model",
        RAG_LLM_API_KEY=SECRET,
        RAG_LLM_TIMEOUT=str(TIMEOUT),
        **extra,
    )


@pytest.mark.slow  # starts a process
def test_cli_ask_json_falls_back_with_exit_0(tmp_path: Path) -> None:
    with fault_server("http500") as url:
        r = run_cli("-vv", "ask", "--backend", "openai", "--json", Q, env=cli_env(tmp_path, url, OPENAI_LOG="debug"))
    assert r.returncode == 0, r.stderr
    obj = json.loads(r.stdout)  # exactly one object
    ref = Engine(Settings(home=tmp_path / "home"), embedder=HashEmbedder()).ask(Q)
    assert obj["answer"] == ref.answer and obj["answer_source"] == "fallback" and obj["backend"] == "openai"
    assert obj["backend_error"].startswith("the LLM server at http://127.0.0.1:")
    assert "answered HTTP 500: internal error; request had Bearer ***" in obj["backend_error"]
    assert "DEBUG openai" in r.stderr or "DEBUG:openai" in r.stderr  # the SDK's debug log was on
    assert SECRET not in r.stdout + r.stderr  # (-vv: the tracebacks in stderr are debug logs)
