"""Shared fixtures: a fake-embedder engine per test, one real-model index per session."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import rag  # noqa: F401  (offline environment)
from rag.engine import Engine
from rag.settings import PROJECT_ROOT, Settings
from tests.fakes import HashEmbedder

DATA = PROJECT_ROOT / "data"
EVAL = PROJECT_ROOT / "eval"
TESTDATA = Path(__file__).parent / "data"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_http(url: str, seconds: float) -> bool:
    """Poll a local URL until it answers 200 (bounded)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return True
        except OSError:
            time.sleep(0.3)
    return False


def load_jsonl(path: Path) -> list[dict]:  # type: ignore[type-arg]
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_corpus(folder: Path, stem: str, abstracts: list[str], header: str = "Test papers") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{stem}.txt"
    path.write_text(header + "\n\n" + "\n\n".join(abstracts) + "\n", encoding="utf-8")
    return path


def with_papers(engine: Engine, folder: Path, stem: str, abstracts: list[str]) -> Engine:
    """`engine` with `abstracts` written as `folder/stem.txt` and ingested (ids `stem#1`, …)."""
    write_corpus(folder, stem, abstracts)
    engine.ingest([folder])
    return engine


def with_records(
    engine: Engine, folder: Path, stem: str, abstracts: list[str], meta: list[dict[str, object]]
) -> Engine:
    """`with_papers`, the papers' records (`meta`: one dict per paper, with its `paper_id`)
    written beside them as `stem.meta.jsonl`."""
    write_corpus(folder, stem, abstracts)
    (folder / f"{stem}.meta.jsonl").write_text("".join(json.dumps(m) + "\n" for m in meta), encoding="utf-8")
    engine.ingest([folder])
    return engine


SMALL = [
    "We propose GraphMix, a regularizer for graph neural networks. GraphMix interpolates node features "
    "between neighbours. It improves accuracy by 3.5% on the Cora benchmark.",
    "Protein design needs accurate structure models. We introduce FoldNet, a diffusion model that "
    "generates protein backbones. FoldNet designs 120 novel folds validated in the lab.",
    "Quantization shrinks language models for phones. We present TinyQuant, which stores weights in 2 bits. "
    "TinyQuant keeps 98% of the accuracy of the full model on reading comprehension.",
    "Reinforcement learning agents explore poorly when rewards are sparse. We study curiosity bonuses "
    "based on prediction error. Curiosity solves 12 of 15 hard exploration games.",
]
# Titles of the SMALL papers as ingested under the stem "x" by `with_records`.
SMALL_META: list[dict[str, object]] = [
    {"paper_id": "x#1", "title": "GraphMix: Regularizing Graph Neural Networks"},
    {"paper_id": "x#2", "title": "FoldNet: Protein Backbones by Diffusion"},
    {"paper_id": "x#3", "title": "TinyQuant: Two-Bit Language Models"},
    {"paper_id": "x#4", "title": "Curiosity Bonuses for Sparse Exploration"},
]


@pytest.fixture
def fake_engine(tmp_path: Path) -> Engine:
    """Real Chroma in tmp_path, deterministic hashing embedder: fast and still ranks."""
    settings = Settings(home=tmp_path / "home", data_dir=tmp_path / "corpus")
    write_corpus(tmp_path / "corpus", "small", SMALL)
    return Engine(settings, embedder=HashEmbedder())


@pytest.fixture(scope="session")
def real_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """The shipped corpus indexed once with the real model and real Chroma."""
    home = tmp_path_factory.mktemp("real-home")
    engine = Engine(Settings(home=home, data_dir=DATA))
    report = engine.ensure_index()
    assert report is not None and not report.errors
    engine.warm()
    yield engine
    shutil.rmtree(home, ignore_errors=True)


SCALE_ABSTRACTS = 1000  # the first N real abstracts of eval/corpora, for quality at scale


@pytest.fixture(scope="session")
def scale_engine(real_engine: Engine, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """The shipped corpus plus the first 1,000 real abstracts, indexed once per session with
    the real model (shared by the scale gate and the bench test). The slice keeps the
    corpus file's name, so paper ids are those of the full corpus."""
    from rag.evaluation.corpus_index import corpus_engine

    root = tmp_path_factory.mktemp("scale")
    lines = (EVAL / "corpora" / "proceedings_2024_2025.jsonl").read_text(encoding="utf-8").splitlines()
    part = root / "corpus" / "proceedings_2024_2025.jsonl"
    part.parent.mkdir()
    part.write_text("\n".join(lines[:SCALE_ABSTRACTS]) + "\n", encoding="utf-8")
    settings = real_engine.settings.model_copy(update={"home": root / "home"})
    engine, _ = corpus_engine(settings, [part], embedder=real_engine.embedder)
    engine.warm()
    yield engine
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def cli_env(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["RAG_HOME"] = str(tmp_path / "home")
    return env


@contextmanager
def serving(home: Path) -> Iterator[str]:
    """A real `rag serve` on a free port over `home`; yields its URL, stops it afterwards."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "rag.cli", "serve", "--port", str(port)],
        env=dict(os.environ, RAG_HOME=str(home)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        if not wait_http(url, 180):
            pytest.fail("rag serve did not start")
        yield url
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
