"""Load: many concurrent gradio_client sessions asking through the Chat tab's `/ask` endpoint of
a real `rag serve`, with an upload-and-ingest from the Papers tab in the middle.

Bounded: CLIENTS x PER_CLIENT requests, a timeout per request and a budget for the whole run;
loopback only. Figures (p50/p95 latency, throughput) are printed and written to
tests/artifacts/load.json.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from rag.engine import Engine
from rag.types import REFUSAL
from tests.conftest import DATA, EVAL, free_port, load_jsonl, wait_http, write_corpus

ARTIFACTS = Path(__file__).parent / "artifacts"
SEED = 20250707
CLIENTS = 20
PER_CLIENT = 25  # distinct questions per client
BASELINE = 25  # questions also asked alone, before and after the load
BASELINE_PER_CLIENT = 5  # of each client's questions, this many come from the baseline set
UPLOAD_AFTER_S = 5.0  # the upload starts this long into the load, and once UPLOAD_AFTER_ANSWERS are in
UPLOAD_AFTER_ANSWERS = 40
REQUEST_TIMEOUT_S = 30.0
START_TIMEOUT_S = 240.0  # the server's start, indexing included (as `server` allows)
BUDGET_S = 180.0  # the load phase (~40 s on 2 cores); requests not started by then count as failures

# A distinct topic (honeybee colonies), absent from the shipped corpus and the eval sets.
BEES = [
    "Honeybee colonies collapse without warning when mites spread. We propose HiveSense, an acoustic "
    "monitor that listens to the hum of a hive. HiveSense tracked 412 hives over two winters and flagged "
    "queen loss nine days before beekeepers noticed it.",
    "Pollination services depend on where foragers fly. We introduce PollenPath, a radar tracker for "
    "single bees. PollenPath recorded 3,180 foraging flights of bumblebees across clover meadows.",
    "Beekeepers treat varroa mites with oxalic acid. We present MiteCount, a phone app that counts mites "
    "on sticky boards from a photo. MiteCount agrees with expert counts on 96% of the boards.",
]
BEE_QUESTION = "How many hives did HiveSense track?"


def client(url: str) -> Any:
    """A gradio_client session. Plain HTTP on loopback: with ssl_verify on, httpx loads the CA
    bundle for every request (~130 ms of client CPU each), which would compete with the server
    for the 2 cores and skew the figures."""
    from gradio_client import Client

    return Client(url, verbose=False, ssl_verify=False)


_MARKER = re.compile(r"\[(\d+)\]")
_SOURCE_ID = re.compile(r"id='source-(\d+)'")


@dataclass
class Request:
    client: int
    question: str
    start: float = 0.0  # seconds since the load started
    end: float = 0.0
    output: tuple[str, str] | None = None  # (answer text, sources html)
    error: str | None = None
    problem: str | None = None  # not well-formed


@dataclass
class Upload:
    start: float = 0.0
    end: float = 0.0
    message: str = ""
    error: str | None = None


def _content(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, list):  # Gradio 6 message parts
        return " ".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def ask(session: Any, question: str, timeout: float = REQUEST_TIMEOUT_S) -> tuple[str, str]:
    """One question through `/ask` (the Chat tab's Ask button); the final (answer, sources)."""
    job = session.submit(question, [], "extractive", 5, [], api_name="/ask")
    chat, sources = job.result(timeout=timeout)[:2]
    assert chat and chat[-1]["role"] == "assistant", chat
    return plain(_content(chat[-1])), str(sources)


def settle(session: Any) -> None:
    """Wait (at most 1 s) until the session's SSE reader has ended after its last event.

    A gradio_client 2.7.2 / Gradio 6.31 race, not the app's: the server closes a session's
    event stream as soon as its last event completes; a request submitted before the client's
    reader thread has acted on that `close_stream` is attached to the closing stream and fails
    on the client with CancelledError (the server still runs it). Seen twice in 500 requests
    under load; with the reader delayed at `close_stream`, half of sequential requests to a
    bare Gradio app fail. Each session here has one request in flight, so the server always
    closes its stream after it and the next request opens a fresh one.
    """
    deadline = time.monotonic() + 1.0
    while getattr(session, "stream_open", False) and time.monotonic() < deadline:
        time.sleep(0.002)


def ask_alone(session: Any, question: str, times: list[float] | None = None) -> tuple[str, str]:
    """One question with nothing else in flight (optionally timed, in ms)."""
    t = time.perf_counter()
    out = ask(session, question)
    if times is not None:
        times.append((time.perf_counter() - t) * 1000)
    settle(session)
    return out


def plain(message: str) -> str:
    """A chat message's text: the app's own reading of the HTML it wrote (list items and
    paragraphs on their own lines)."""
    from ui.layout import message_plain

    return message_plain(message)


_AFTER = re.compile(r"^\((?:Note: |The \w+ backend failed: ).*\)$")


def problem(answer: str, sources: str) -> str | None:
    """Why an answer is not well-formed (None when it is): a refusal with the closest papers, or
    lines whose every sentence ends in [n] with each n a source shown in the panel."""
    if not answer.strip():
        return "empty answer"
    # The note and a backend's failure, shown after the answer, are the app's, not cited text.
    answer = "\n".join(line for line in answer.splitlines() if not _AFTER.match(line)).strip()
    if answer == REFUSAL:
        return None if "Not in the abstracts" in sources and "<li>" in sources else "refusal without closest papers"
    cited: set[int] = set()
    for line in answer.splitlines():
        parts = _MARKER.split(line)  # text, n, text, n, ..., tail
        if len(parts) < 3:
            return f"uncited line {line!r}"
        if parts[-1].strip():
            return f"uncited text after the last citation: {parts[-1]!r}"
        if any(not seg.strip() for seg in parts[0:-1:2]):
            return f"citation without a sentence in {line!r}"
        cited |= {int(n) for n in parts[1::2]}
    shown = {int(n) for n in _SOURCE_ID.findall(sources)}
    if cited != shown:
        return f"cited {sorted(cited)} but the sources panel shows {sorted(shown)}"
    return None


def questions() -> list[str]:
    """Distinct standalone questions of both eval sets (follow-ups need their history), in file order."""
    rows = load_jsonl(EVAL / "dev.jsonl") + load_jsonl(EVAL / "test.jsonl")
    return list(dict.fromkeys(r["question"] for r in rows if not r.get("history")))


def plan(pool: list[str], rng: random.Random) -> tuple[list[str], list[list[str]]]:
    """The baseline set and each client's questions: BASELINE_PER_CLIENT from the baseline set,
    the rest from the other questions, shuffled; distinct within a client."""
    baseline = rng.sample(pool, BASELINE)
    others = [q for q in pool if q not in baseline]
    per_client = []
    for _ in range(CLIENTS):
        qs = rng.sample(baseline, BASELINE_PER_CLIENT) + rng.sample(others, PER_CLIENT - BASELINE_PER_CLIENT)
        rng.shuffle(qs)
        per_client.append(qs)
    return baseline, per_client


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, float, Path]]:
    """A real `rag serve` (real model, extractive backend) on an empty RAG_HOME: it binds, then
    indexes the shipped corpus itself (a question asked meanwhile waits)."""
    home = tmp_path_factory.mktemp("load-home")
    port = free_port()
    env = dict(os.environ, RAG_HOME=str(home), RAG_DATA_DIR=str(DATA), RAG_BACKEND="extractive")
    log = open(home / "serve.log", "wb")  # noqa: SIM115  (closed below)
    proc = subprocess.Popen(
        [sys.executable, "-m", "rag.cli", "serve", "--port", str(port)],
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    t0 = time.perf_counter()
    try:
        if not wait_http(url, START_TIMEOUT_S):
            pytest.fail("rag serve did not start:\n" + (home / "serve.log").read_text(errors="replace")[-3000:])
        yield url, time.perf_counter() - t0, home / "serve.log"
    finally:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait(timeout=10)
        log.close()


@pytest.mark.slow
def test_concurrent_clients_with_upload(server: tuple[str, float, Path], tmp_path: Path) -> None:
    from gradio_client import handle_file

    url, ready_s, serve_log = server
    phases: dict[str, float] = {"serve_ready": ready_s}
    rng = random.Random(SEED)
    baseline_qs, per_client = plan(questions(), rng)
    assert len({q for qs in per_client for q in qs}) > 100 and all(len(set(qs)) == PER_CLIENT for qs in per_client)

    sessions: list[Any] = []  # closed at the end, whatever happens
    try:
        # `rag serve` binds before it has indexed the shipped corpus into the empty RAG_HOME, and
        # the first question waits for that (27 s on 2026-12-06, a machine slowed by I/O, where
        # a 30 s request timeout failed): it is asked first, with the start-up allowance, and
        # every figure below is of a warm server.
        t = time.perf_counter()
        warm = client(url)
        sessions.append(warm)
        ask(warm, baseline_qs[0], timeout=START_TIMEOUT_S)
        settle(warm)
        phases["first_answer"] = time.perf_counter() - t
        # Sequential baseline: each question asked alone.
        t = time.perf_counter()
        solo = client(url)
        sessions.append(solo)
        solo_ms: list[float] = []
        pre = {q: ask_alone(solo, q, solo_ms) for q in baseline_qs}
        phases["baseline_before"] = time.perf_counter() - t
        for q, (a, s) in pre.items():
            assert problem(a, s) is None, (q, a, problem(a, s))

        corpus = write_corpus(tmp_path / "upload", "bees", BEES, header="Honeybee papers")
        requests = [[Request(i, q) for q in qs] for i, qs in enumerate(per_client)]
        clients: list[Any] = [None] * (CLIENTS + 1)  # the last one uploads
        setup_errors: list[str] = []
        upload = Upload()
        clock = {"t0": 0.0}  # set once everyone is connected, before anyone starts

        def now() -> float:
            return time.perf_counter() - clock["t0"]

        start = threading.Barrier(CLIENTS + 2, action=lambda: clock.update(t0=time.perf_counter()))

        def connect(i: int) -> bool:
            try:
                clients[i] = client(url)
                sessions.append(clients[i])
            except Exception as e:
                setup_errors.append(f"client {i}: {type(e).__name__}: {e}")
            start.wait()  # everyone starts together, connected or not
            return clients[i] is not None

        def worker(i: int) -> None:
            if not connect(i):
                return
            for r in requests[i]:
                r.start = now()
                if r.start > BUDGET_S:
                    r.error = "not started within the budget"
                    continue
                try:
                    r.output = ask(clients[i], r.question)
                except Exception as e:  # counted and shown, never hidden
                    r.error = f"{type(e).__name__}: {e}"
                r.end = now()
                settle(clients[i])
                if r.output is not None:
                    r.problem = problem(*r.output)

        def do_upload() -> None:
            if not connect(CLIENTS):
                return
            while now() < min(UPLOAD_AFTER_S * 6, BUDGET_S) and (
                now() < UPLOAD_AFTER_S or sum(r.end > 0 for rs in requests for r in rs) < UPLOAD_AFTER_ANSWERS
            ):
                time.sleep(0.1)
            upload.start = now()
            try:
                upload.message = str(clients[CLIENTS].predict(handle_file(str(corpus)), api_name="/upload")[0])
            except Exception as e:
                upload.error = f"{type(e).__name__}: {e}"
            upload.end = now()

        threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(CLIENTS)]
        threads.append(threading.Thread(target=do_upload, daemon=True))
        t = time.perf_counter()
        for th in threads:
            th.start()
        start.wait(timeout=120)
        phases["connect"] = clock["t0"] - t
        assert not setup_errors, setup_errors
        cpu0 = time.process_time()
        deadline = time.monotonic() + BUDGET_S + REQUEST_TIMEOUT_S + 10
        for th in threads:
            th.join(timeout=max(0.0, deadline - time.monotonic()))
        phases["load"] = now()
        stuck = sum(th.is_alive() for th in threads)
        assert stuck == 0, f"{stuck} client threads still running after {phases['load']:.0f}s (deadlock?)"

        done = [r for rs in requests for r in rs]
        ok = [r for r in done if r.output is not None]
        ms = np.array([(r.end - r.start) * 1000 for r in ok] or [np.nan])
        figures: dict[str, Any] = {
            "clients": CLIENTS,
            "questions_per_client": PER_CLIENT,
            "requests": len(done),
            "errors": sum(r.output is None for r in done),
            "malformed": sum(r.problem is not None for r in done),
            "p50_ms": round(float(np.percentile(ms, 50)), 1),
            "p95_ms": round(float(np.percentile(ms, 95)), 1),
            "max_ms": round(float(np.max(ms)), 1),
            "throughput_rps": round(len(ok) / max([r.end for r in ok] or [1.0]), 2),
            "load_wall_s": round(phases["load"], 1),
            "alone_p50_ms": round(float(np.percentile(solo_ms, 50)), 1),  # the baseline, one request at a time
            "test_process_cpu_s": round(time.process_time() - cpu0, 1),  # the clients share the 2 cores
            "upload_s": [round(upload.start, 2), round(upload.end, 2)],
            "upload_message": upload.message or upload.error,
            "cpus": os.cpu_count(),
            "concurrency_limit": 4,
        }

        def report() -> None:
            figures["phases_s"] = {k: round(v, 1) for k, v in phases.items()}
            ARTIFACTS.mkdir(exist_ok=True)
            (ARTIFACTS / "load.json").write_text(json.dumps(figures, indent=2) + "\n")
            with open(ARTIFACTS / "load_requests.jsonl", "w", encoding="utf-8") as fh:
                for r in done:
                    row = {**vars(r), "output": r.output[0] if r.output else None}  # the answer, not the panel
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            print("\nload:", json.dumps(figures))

        def server_log() -> str:
            return "\nserver log:\n" + serve_log.read_text(errors="replace")[-3000:]

        report()
        errors = [(r.client, r.question, r.error or "not run") for r in done if r.output is None]
        assert not errors, f"{errors[:5]}{server_log()}"
        malformed = [(r.question, r.output, r.problem) for r in done if r.problem]
        assert not malformed, f"{malformed[:3]}{server_log()}"

        # The upload went through while the others were asking.
        assert upload.error is None, upload.error + server_log()
        assert "bees.txt: 3 added" in upload.message and "Index: 60 papers" in upload.message, upload.message
        assert any(r.end < upload.start for r in done) and any(r.start > upload.end for r in done)

        # Determinism under concurrency: an answer equals the one the question gets alone on the
        # index of its time (before the upload, after it, or either while the upload ran).
        t = time.perf_counter()
        post = {q: ask_alone(solo, q) for q in baseline_qs}
        phases["baseline_after"] = time.perf_counter() - t
        compared = [r for r in done if r.question in pre]
        mismatched = []
        for r in compared:
            expected = [pre[r.question]] if r.end < upload.start else [post[r.question]] if r.start > upload.end else []
            if r.output not in (expected or [pre[r.question], post[r.question]]):
                mismatched.append((r.question, r.start, r.end, r.output, expected or "before or after"))
        figures.update(compared_with_solo=len(compared), differed_from_solo=len(mismatched))
        report()
        assert len(compared) == CLIENTS * BASELINE_PER_CLIENT
        assert not mismatched, mismatched[:3]

        # The new paper answers questions about its topic once ingested.
        answer, sources = ask(solo, BEE_QUESTION)
        assert problem(answer, sources) is None and answer != REFUSAL, answer
        assert "412" in answer and "[1]" in answer and "bees#1" in sources, (answer, sources)
    finally:
        closing = [threading.Thread(target=c.close) for c in sessions]  # each waits up to 1 s
        for th in closing:
            th.start()
        for th in closing:
            th.join()


def test_upload_between_answer_and_sources_panel(
    fake_engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An upload that commits after an answer is composed but before its sources panel is
    rendered (a window of several streamed yields under load) must not drop the cited paper
    from the panel: answer and panel come from one index view."""
    import ui.chat as ui_chat
    import ui.papers as ui_papers
    import ui.state as ui_state

    monkeypatch.setattr(ui_state, "_engine", fake_engine)
    fake_engine.ensure_index()
    assert "3 added" in ui_papers.upload(str(write_corpus(tmp_path / "v1", "bees", BEES)))
    landed: list[str] = []
    answer_first = fake_engine.ask

    def ask_then_upload(*args: Any, **kw: Any) -> Any:
        out = answer_first(*args, **kw)
        landed.append(ui_papers.upload(str(write_corpus(tmp_path / "v2", "bees", BEES[:2]))))  # drops bees#3
        return out

    monkeypatch.setattr(fake_engine, "ask", ask_then_upload)
    *_, (chat, sources, _, answers) = ui_chat.respond(
        "On what share of the boards does MiteCount agree with expert counts?", [], "extractive", 5
    )
    assert "1 removed" in landed[0] and "bees#3" not in fake_engine.retriever.snapshot.papers
    text = plain(chat[-1]["content"])
    assert "96%" in text and answers[-1]["citations"][0]["paper_id"] == "bees#3", text
    assert problem(text, sources) is None and "bees#3" in sources and "<mark>" in sources, sources
