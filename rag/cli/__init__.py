"""The `rag` command line: argument parsing and commands only."""

from rag.cli.main import main

__all__ = ["main"]
