"""Real LLMs: SmolLM2 GGUF in-process, and the same model behind a real OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from rag.answer.cite import supports
from rag.answer.pipeline import ask
from rag.engine import Engine
from rag.models.llm import LocalLLM, OpenAICompatLLM, default_gguf
from rag.text.normalize import clean, match_form
from rag.types import Query
from tests.conftest import TESTDATA, free_port, load_jsonl, wait_http

pytestmark = pytest.mark.slow

QUESTIONS = [
    "How many questions does SNS-Bench contain?",
    "What does GENIE prevent during optimization?",
    "What phenomenon does ZebraLogic reveal as puzzles get harder?",
]


def check_answer(engine: Engine, a) -> None:  # type: ignore[no-untyped-def]
    papers = engine.retriever.snapshot.papers
    sources = {s.paper_id for s in a.sources}
    assert a.answer_source in ("llm", "fallback") and a.answer.strip()
    if a.refused:  # the model may refuse; then nothing is cited
        assert a.answer_source == "llm" and a.citations == [] and a.closest
        return
    for c in a.citations:  # every surviving citation is valid...
        assert c.paper_id in sources and match_form(c.quote) in match_form(papers[c.paper_id].abstract)
    for s in a.sentences:  # ...and every kept sentence is supported by the sentence it rests on
        if s.supported:
            assert s.evidence_quote and s.citations
    if a.answer_source == "llm":
        kept = [s for s in a.sentences if s.supported]
        assert all(f"{s.text} [{s.citations[0]}]" in a.answer for s in kept)


def ask_streaming(engine: Engine, llm: object, backend: str, question: str) -> None:
    released: list[str] = []
    a = ask(
        Query(question=question),
        backend=backend,
        retriever=engine.retriever,
        llm=llm,
        on_sentence=released.append,
        llm_options={"max_tokens": 120, "temperature": 0.0, "timeout": 120},
    )
    check_answer(engine, a)
    assert released  # streamed sentence by sentence (LLM sentences, the fallback's, or the refusal)


def test_local_smollm2(real_engine: Engine) -> None:
    llm = LocalLLM(default_gguf())
    for q in QUESTIONS:
        ask_streaming(real_engine, llm, "local", q)


@pytest.fixture(scope="module")
def llama_server():  # type: ignore[no-untyped-def]
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "llama_cpp.server",
            "--model",
            default_gguf(),
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--n_ctx",
            "4096",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/v1"
    try:
        if not wait_http(f"{url}/models", 120):
            pytest.fail("llama_cpp.server did not start")
        yield url
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=30)


def test_openai_backend_against_real_server(real_engine: Engine, llama_server: str) -> None:
    llm = OpenAICompatLLM(llama_server, "smollm2", None, timeout=60, max_retries=0)
    deltas = list(llm.stream([{"role": "user", "content": "Say hello."}], max_tokens=16, temperature=0.0))
    assert len(deltas) > 1  # it really streams
    for q in QUESTIONS[:2]:
        ask_streaming(real_engine, llm, "openai", q)


def test_cli_openai_backend_json_and_stream(real_engine: Engine, llama_server: str) -> None:
    env = dict(
        os.environ,
        RAG_HOME=str(real_engine.settings.home),
        RAG_LLM_BASE_URL=llama_server,
        RAG_LLM_MODEL="smollm2",
        RAG_LLM_API_KEY="sk-test-secret-123",
    )
    r = subprocess.run(
        [sys.executable, "-m", "rag.cli", "ask", "--json", "--backend", "openai", QUESTIONS[0]],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    obj = json.loads(r.stdout)
    assert r.returncode == 0 and obj["backend"] == "openai" and obj["answer_source"] in ("llm", "fallback")
    assert {"sentences", "grounding", "answer_source"} <= set(obj)
    assert "sk-test-secret-123" not in r.stdout + r.stderr
    # Unreachable server: one clear message, the extractive answer, exit 0.
    env["RAG_LLM_BASE_URL"] = f"http://127.0.0.1:{free_port()}/v1"
    r = subprocess.run(
        [sys.executable, "-m", "rag.cli", "ask", "--backend", "openai", QUESTIONS[0]],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0 and "6,658" in r.stdout and "failed" in r.stdout and "Traceback" not in r.stderr
    assert "sk-test-secret-123" not in r.stdout + r.stderr


def test_support_judge_calibration(real_engine: Engine) -> None:
    rows = load_jsonl(TESTDATA / "support_examples.jsonl")
    right = 0
    for r in rows:
        ev = clean(r["evidence"])
        cos = float(real_engine.retriever.embed_query(r["claim"]) @ real_engine.retriever.embed_query(ev))
        right += supports(r["claim"], ev, source_text=r["evidence"], cosine=cos) == r["supported"]
    assert right / len(rows) >= 0.9, right
