"""The `rag` command line: argument parsing and dispatch to the commands."""

from __future__ import annotations

import argparse
import json
import logging
import sys

import rag  # noqa: F401  (sets the offline environment first)
from rag.cli.commands import (
    cmd_ask,
    cmd_chat,
    cmd_ingest,
    cmd_papers,
    cmd_remove,
    cmd_search,
    cmd_serve,
    cmd_status,
)
from rag.cli.eval import cmd_bench, cmd_eval
from rag.cli.logs import RedactingFormatter, env_secrets
from rag.cli.verify import add_verify_parser
from rag.errors import BackendUnavailable, IndexCorrupt, StoreUnavailable, UsageError
from rag.types import BACKENDS

log = logging.getLogger("rag")


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rag", description="Cited answers from ICML 2025 paper abstracts.")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging on stderr")
    sub = p.add_subparsers(dest="command", required=True)
    _add_answer_commands(sub)
    _add_index_commands(sub)
    _add_tool_commands(sub)
    return p


def _add_answer_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`ask` and `chat`."""
    a = sub.add_parser("ask", help="answer one question with citations")
    a.add_argument("question")
    a.add_argument("--json", action="store_true", help="print exactly one JSON object")
    a.add_argument("--backend", choices=BACKENDS, help="answer backend (default RAG_BACKEND or extractive)")
    a.add_argument("--top-k", type=int, help="papers considered (default RAG_TOP_K)")
    a.add_argument("--history", help="JSON file of earlier turns")
    a.add_argument("--paper", action="append", help="restrict to this paper id (repeatable)")
    a.add_argument("--file", action="append", help="restrict to this source file stem (repeatable)")
    a.add_argument("--explain", action="store_true", help="show scores and why evidence was chosen")
    a.set_defaults(func=cmd_ask)

    c = sub.add_parser("chat", help="interactive conversation in the terminal")
    c.add_argument("--backend", choices=BACKENDS)
    c.add_argument("--top-k", type=int)
    c.set_defaults(func=cmd_chat)


def _add_index_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`ingest`, `search`, `papers`, `remove` and `status`."""
    i = sub.add_parser("ingest", help="index corpus files (default: the shipped data/)")
    i.add_argument("paths", nargs="*")
    i.add_argument("--rebuild", action="store_true", help="drop the index and build it again")
    i.add_argument("--json", action="store_true")
    i.set_defaults(func=cmd_ingest)

    s = sub.add_parser("search", help="ranked papers with their best sentences, no answer")
    s.add_argument("query")
    s.add_argument("--top-k", type=int)
    s.add_argument("--paper", action="append")
    s.add_argument("--file", action="append")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_search)

    pp = sub.add_parser("papers", help="list papers or show one")
    pp.add_argument("action", nargs="?", choices=["list", "show"], default="list")
    pp.add_argument("id", nargs="?")
    pp.add_argument("--json", action="store_true")
    pp.add_argument("--bibtex", action="store_true", help="with `show`: print the paper's BibTeX entry")
    pp.set_defaults(func=cmd_papers)

    r = sub.add_parser("remove", help="remove a file's papers or single papers from the index")
    r.add_argument("targets", nargs="+", metavar="FILE|PAPER_ID")
    r.set_defaults(func=cmd_remove)

    st = sub.add_parser("status", help="store location, papers, chunks, model, last ingest")
    st.add_argument("--json", action="store_true")
    st.set_defaults(func=cmd_status)


def _add_tool_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """`serve`, `eval` and `bench`."""
    sv = sub.add_parser("serve", help="start the web app (on this machine only, unless --allow-remote)")
    sv.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    sv.add_argument("--port", type=int, default=7860)
    sv.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host other machines can reach (set RAG_UI_AUTH=user:password too)",
    )
    sv.set_defaults(func=cmd_serve)

    ev = sub.add_parser("eval", help="grounding evaluation over an eval set")
    ev.add_argument("--set", help="eval set (JSONL) to run")
    ev.add_argument("--check", metavar="PATH", help="validate an eval set against the corpus")
    ev.add_argument("--against", metavar="OTHER", help="with --check: report every leak from the other set")
    ev.add_argument(
        "--corpus", action="append", metavar="PATH", help="also index this corpus file (repeatable; own index, reused)"
    )
    ev.add_argument("--baseline", action="store_true", help="also score the plain llama-index baseline")
    ev.add_argument(
        "--judgments",
        action="append",
        metavar="PATH",
        help="graded papers of list answers (JSONL; repeatable): adds list precision to the report",
    )
    ev.add_argument("--diff", nargs=2, metavar=("DIR_A", "DIR_B"), help="compare two eval runs")
    ev.add_argument("--backend", action="append", choices=BACKENDS, help="backend (repeat to compare)")
    ev.add_argument("--out", default="eval/runs/latest", help="output folder")
    ev.add_argument("--limit", type=int, help="only the first N questions")
    ev.add_argument("--top-k", type=int)
    ev.add_argument("--fail-under", action="append", metavar="METRIC=VALUE", help="exit 1 below this")
    ev.set_defaults(func=cmd_eval)

    b = sub.add_parser("bench", help="measure ingest, retrieval and answer speed")
    b.add_argument("--quick", action="store_true", help="a small version (under a minute)")
    b.add_argument("--sizes", help="chunk counts of the synthetic indexes (default 1000,10000,100000)")
    b.add_argument("--json", action="store_true")
    b.set_defaults(func=cmd_bench)

    add_verify_parser(sub)


def main(argv: list[str] | None = None) -> int:
    from rag.models.llm_errors import redact

    parser = build_parser()
    args = parser.parse_args(argv)
    level = logging.WARNING - 10 * min(args.verbose, 2)
    secrets = env_secrets()
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(RedactingFormatter("%(levelname)s %(name)s: %(message)s", secrets))
    logging.basicConfig(level=level, handlers=[handler])
    for noisy in ("httpx", "chromadb", "sentence_transformers", "bm25s", "transformers"):
        logging.getLogger(noisy).setLevel(max(level, logging.WARNING))
    as_json = getattr(args, "json", False)
    try:
        return int(args.func(args))
    except (UsageError, BackendUnavailable, IndexCorrupt, StoreUnavailable) as e:
        if as_json:
            print(json.dumps({"error": redact(str(e), secrets)}))
        print(f"error: {redact(str(e), secrets)}", file=sys.stderr)  # messages may quote a server's reply
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # last resort: one line, never a traceback for users
        log.debug("unexpected error", exc_info=True)
        msg = redact(f"{type(e).__name__}: {e}", secrets)
        if as_json:
            print(json.dumps({"error": msg}))
        print(f"error: {msg} (run with -vv for details)", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
