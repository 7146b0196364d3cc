"""Run one ingest with the deterministic fake embedder (the crash test kills this process).

Usage: python tests/crash_ingest.py RAG_HOME CORPUS_DIR
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: find `tests`

import rag  # noqa: F401  (offline environment)
from rag.engine import Engine
from rag.settings import Settings
from tests.fakes import HashEmbedder

if __name__ == "__main__":
    home, corpus = Path(sys.argv[1]), Path(sys.argv[2])
    report = Engine(Settings(home=home), embedder=HashEmbedder()).ingest([corpus], progress=False)
    sys.exit(1 if report.errors else 0)
