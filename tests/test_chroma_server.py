"""Chroma server mode: a real `chroma run`, one `rag` process ingests, others ask.

The manifest lives in the server's collections, so an instance with an empty RAG_HOME
sees the corpus as indexed; a long-running instance picks up another's ingest (BM25
included) without a restart.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from rag.engine import Engine
from rag.settings import Settings
from tests.conftest import SMALL, free_port, wait_http, write_corpus

pytestmark = pytest.mark.slow

CHROMA = Path(sys.executable).parent / "chroma"
EXTRA = [
    "We present TideCast, a transformer that forecasts coastal tide heights from satellite altimetry. "
    "TideCast lowers the forecast error by 21% against harmonic analysis at 40 stations."
]


@pytest.fixture
def chroma_server(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [str(CHROMA), "run", "--path", str(tmp_path / "server"), "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        assert wait_http(f"{url}/api/v2/heartbeat", 60), "chroma server did not start"
        yield url
    finally:
        os.kill(proc.pid, signal.SIGTERM)  # stopped by its PID
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def run_rag(args: list[str], home: Path, url: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "RAG_HOME": str(home), "RAG_CHROMA_URL": url, "RAG_DATA_DIR": str(data)}
    return subprocess.run(
        [sys.executable, "-m", "rag.cli", *args], env=env, capture_output=True, text=True, timeout=300
    )


def test_one_process_ingests_another_asks(chroma_server: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_corpus(data, "small", SMALL)

    first = run_rag(["ingest", "--json"], tmp_path / "home-a", chroma_server, data)
    assert first.returncode == 0, first.stderr
    report = json.loads(first.stdout)
    assert report["papers"] == len(SMALL) and report["chunks_embedded"] > 0
    assert not (tmp_path / "home-a" / "chroma").exists()  # nothing embedded locally

    # A second instance with an empty RAG_HOME: the corpus is already indexed.
    again = run_rag(["ingest", "--json"], tmp_path / "home-b", chroma_server, data)
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["chunks_embedded"] == 0

    asked = run_rag(
        ["ask", "--json", "Which diffusion model designs protein backbones?"], tmp_path / "home-c", chroma_server, data
    )
    assert asked.returncode == 0, asked.stderr
    a = json.loads(asked.stdout)
    assert not a["refused"] and a["citations"][0]["label"] == "FoldNet"

    status = run_rag(["status", "--json"], tmp_path / "home-c", chroma_server, data)
    s = json.loads(status.stdout)
    assert s["papers"] == len(SMALL) and chroma_server in json.dumps(s)


def test_a_running_instance_sees_another_instances_ingest(chroma_server: str, tmp_path: Path) -> None:
    data = tmp_path / "data"
    write_corpus(data, "small", SMALL)
    assert run_rag(["ingest"], tmp_path / "home-a", chroma_server, data).returncode == 0

    reader = Engine(Settings(home=tmp_path / "home-b", chroma_url=chroma_server, data_dir=data))
    reader.retriever.refresh_interval = 0.0
    question = "Which model forecasts coastal tide heights?"
    before = reader.retriever.retrieve(question, top_k=3)
    assert all(h.paper_id != "extra#1" for h in before.hits)

    write_corpus(data, "extra", EXTRA)
    done = run_rag(["ingest", str(data / "extra.txt")], tmp_path / "home-a", chroma_server, data)
    assert done.returncode == 0, done.stderr

    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "extra#1" not in reader.retriever.snapshot.papers:
        time.sleep(0.2)
    after = reader.retriever.retrieve(question, top_k=3)
    top = after.hits[0]
    assert top.paper_id == "extra#1"
    assert top.bm25 > 0 and top.dense > 0  # both sides know the new paper
    assert any(s.bm25 for s in top.sentences)  # sentence-level BM25 was rebuilt too

    # Removal by the other instance is seen as well.
    gone = run_rag(["remove", "extra#1"], tmp_path / "home-a", chroma_server, data)
    assert gone.returncode == 0, gone.stderr
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "extra#1" in reader.retriever.snapshot.papers:
        time.sleep(0.2)
    assert "extra#1" not in reader.retriever.snapshot.papers
