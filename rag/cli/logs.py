"""Logging for the CLI: secrets never reach a log line or an error message."""

from __future__ import annotations

import logging


def env_secrets() -> list[str]:
    """Values never to print: the LLM API key, the Chroma token and the UI password."""
    import os

    auth = os.environ.get("RAG_UI_AUTH", "")
    values = [os.environ.get("RAG_LLM_API_KEY"), os.environ.get("RAG_CHROMA_TOKEN"), auth.partition(":")[2]]
    return [v for v in values if v and len(v) >= 4]  # a 1-3 character "secret" would mangle every line


class RedactingFormatter(logging.Formatter):
    """Log lines (tracebacks included) with the secrets replaced: a server or library may echo
    a key back in an error message."""

    def __init__(self, fmt: str, secrets: list[str]) -> None:
        super().__init__(fmt)
        self.secrets = secrets

    def format(self, record: logging.LogRecord) -> str:
        from rag.models.llm_errors import redact

        return redact(super().format(record), self.secrets)
