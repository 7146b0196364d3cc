"""The optional LLM judge (RAG_VERIFY_LLM=1) against a scripted OpenAI-compatible server on
127.0.0.1: "yes" keeps a sentence, "no" drops it, garbage or a hung server leaves the rules'
decision and a `backend_error`. Answers come from the same server; retrieval uses the
hashing embedder, so the file runs in seconds."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from rag.answer.entail import EntailmentJudge, parse_verdict
from rag.answer.prompts import ENTAIL_SYSTEM
from rag.engine import Engine
from rag.models.llm import OpenAICompatLLM
from rag.settings import Settings
from tests.conftest import SMALL, free_port, write_corpus
from tests.fakes import HashEmbedder

TIMEOUT = 2.0
ANSWER = "FoldNet designs 120 novel folds validated in the lab [1]."
Q = "How many novel folds does FoldNet design?"


def sse(content: str) -> bytes:
    chunk = {"id": "c", "object": "chat.completion.chunk", "created": 0, "model": "m",
             "choices": [{"index": 0, "delta": {"content": content}, "finish_reason": None}]}  # fmt: skip
    return b"data: " + json.dumps(chunk).encode() + b"\n\n"


class Handler(BaseHTTPRequestHandler):
    server: Server

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        judging = body["messages"][0]["content"] == ENTAIL_SYSTEM
        self.server.judge_calls += judging
        reply = self.server.verdict if judging else ANSWER
        if reply == "HANG":
            self.server.stop.wait(30)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        self.wfile.write(sse(reply) + b"data: [DONE]\n\n")


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, verdict: str) -> None:
        super().__init__(("127.0.0.1", free_port()), Handler)
        self.verdict = verdict
        self.judge_calls = 0
        self.stop = threading.Event()


@contextmanager
def serving(verdict: str) -> Iterator[Server]:
    srv = Server(verdict)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        yield srv
    finally:
        srv.stop.set()
        srv.shutdown()
        srv.server_close()


def engine_for(srv: Server, tmp_path: Path, *, verify_llm: bool = True) -> Engine:
    settings = Settings(
        home=tmp_path / "home",
        data_dir=tmp_path / "corpus",
        llm_base_url=f"http://127.0.0.1:{srv.server_address[1]}/v1",
        llm_model="scripted",
        llm_timeout=TIMEOUT,
        llm_max_retries=0,
        verify_llm=verify_llm,
    )
    write_corpus(tmp_path / "corpus", "small", SMALL)
    e = Engine(settings, embedder=HashEmbedder())
    e.ensure_index()
    return e


@pytest.mark.parametrize(
    ("verdict", "source", "kept", "reason", "error"),
    [
        ("Yes.", "llm", True, "(LLM judge: entailed)", None),
        ("no", "fallback", False, "LLM judge: evidence does not entail it", None),
        ("Perhaps, it depends", "llm", True, "supported", "neither yes nor no"),
        ("HANG", "llm", True, "supported", "within 2s"),
    ],
)
def test_llm_judge(verdict: str, source: str, kept: bool, reason: str, error: str | None, tmp_path: Path) -> None:
    with serving(verdict) as srv:
        engine = engine_for(srv, tmp_path)
        t0 = time.perf_counter()
        a = engine.ask(Q, backend="openai")
        took = time.perf_counter() - t0
    assert srv.judge_calls == 1
    assert a.answer_source == source
    first = a.sentences[0]
    assert first.supported is kept and (first.reason or "").endswith(reason)
    if error is None:
        assert a.backend_error is None
    else:
        assert error in (a.backend_error or "") and "rules only" in (a.backend_error or "")
    assert took < 2 * TIMEOUT + 3.0  # a hung judge costs at most its timeout
    assert "sentences" in a.to_json() and "reason" in a.to_json()["sentences"][0]  # type: ignore[index]


def test_llm_judge_off_by_default(tmp_path: Path) -> None:
    with serving("no") as srv:
        a = engine_for(srv, tmp_path, verify_llm=False).ask(Q, backend="openai")
    assert srv.judge_calls == 0 and a.answer_source == "llm" and a.sentences[0].reason == "supported"


def test_llm_judge_latency(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with serving("yes") as srv:
        llm = OpenAICompatLLM(f"http://127.0.0.1:{srv.server_address[1]}/v1", "scripted", None, timeout=TIMEOUT)
        judge = EntailmentJudge(llm, timeout=TIMEOUT)
        judge.check("warm up", "warm up")
        times = [judge.check(ANSWER, ANSWER).seconds for _ in range(10)]
    times.sort()
    with capsys.disabled():
        print(
            f"\nLLM judge latency (scripted local server): median {times[5] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms"
        )
    assert times[5] < 1.0


@pytest.mark.parametrize(
    ("text", "verdict"),
    [
        ("Yes", True),
        (" yes.", True),
        ("No, because", False),
        ("NO", False),
        ("true", True),
        ("", None),
        ("Maybe", None),
    ],
)
def test_parse_verdict(text: str, verdict: bool | None) -> None:
    assert parse_verdict(text) is verdict
