"""`rag verify FILE|-`: check claims with citations against the papers they cite (JSONL in,
JSONL out), and `rag verify --pairs FILE…`: the judge's confusion tables on pair sets."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rag.answer.claims import check_claim
from rag.errors import UsageError
from rag.evaluation.judge_eval import format_tables, hardest, load_pairs, run, tables
from rag.settings import PROJECT_ROOT, load_settings

log = logging.getLogger("rag")


def add_verify_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    v = sub.add_parser("verify", help="check claims with citations (JSONL) against the papers they cite")
    v.add_argument("file", nargs="?", metavar="FILE|-", help='JSONL of {"claim", "paper_id", "evidence"?}; - = stdin')
    v.add_argument("--json", action="store_true", help="also print one summary object at the end")
    v.add_argument("--pairs", nargs="+", metavar="PAIRS", help="confusion tables of the judge on pair files")
    v.set_defaults(func=cmd_verify)


def _engine() -> Any:
    from rag.engine import Engine

    return Engine(load_settings())


def cmd_verify(args: argparse.Namespace) -> int:
    if not args.pairs and not args.file:
        raise UsageError("rag verify needs FILE (or - for stdin) or --pairs FILE")
    engine = _engine()
    if args.pairs:
        return _pairs(engine, [Path(p) for p in args.pairs], as_json=args.json)
    lines = sys.stdin if args.file == "-" else _open(args.file)
    engine.ensure_index()
    counts: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            row = _check_line(engine, line)
        except ValueError as e:
            print(f"line {lineno}: {e}", file=sys.stderr)
            counts["errors"] += 1
            continue
        counts["supported" if row["supported"] else "unsupported"] += 1
        reasons[str(row["reason"]).split(":")[0]] += 1
        print(json.dumps(row, ensure_ascii=False), flush=True)
    if args.json:
        checked = counts["supported"] + counts["unsupported"]
        summary = {"checked": checked, **{k: counts[k] for k in ("supported", "unsupported", "errors")}}
        print(json.dumps({**summary, "by_reason": dict(reasons.most_common())}))
    return 1 if counts["errors"] else 0


def _open(path: str) -> Iterable[str]:
    try:
        return Path(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"cannot read {path}: {e}") from None


def _check_line(engine: Any, line: str) -> dict[str, Any]:
    """One input line checked; ValueError (one line of text) for a bad one."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise ValueError(f"not JSON ({e.msg})") from None
    if not isinstance(obj, dict):
        raise ValueError("expected an object with claim and paper_id")
    claim, pid, evidence = obj.get("claim"), obj.get("paper_id"), obj.get("evidence")
    if not isinstance(claim, str) or not claim.strip():
        raise ValueError('"claim" must be a non-empty string')
    if not isinstance(pid, str) or not pid:
        raise ValueError('"paper_id" must be a string')
    if evidence is not None and (not isinstance(evidence, str) or not evidence.strip()):
        raise ValueError('"evidence" must be a non-empty string when given')
    paper = engine.papers.get(pid)
    if paper is None:
        raise ValueError(f"unknown paper_id {pid!r} (see rag papers list)")
    sentences = [q for _, q in engine.retriever.snapshot.paper_quotes(pid)]
    c = check_claim(claim, sentences, cosine=engine.retriever.cosine, label=paper.label, evidence=evidence)
    return {**obj, "supported": c.supported, "evidence_quote": c.evidence_quote, "reason": c.reason}


def _pairs(engine: Any, paths: list[Path], *, as_json: bool) -> int:
    from rag.corpus.reader import corpus_files, read_corpus_file

    roots = [p for p in (Path(engine.settings.data_dir), PROJECT_ROOT / "eval" / "corpora") if p.exists()]
    labels = {p.paper_id: p.label for f in corpus_files(roots) for p in read_corpus_file(f)}
    out: dict[str, Any] = {}
    for path in paths:
        if not path.exists():
            raise UsageError(f"no such pair file: {path}")
        rows = run(load_pairs(path), engine.retriever.cosine, labels)
        out[path.name] = {"tables": tables(rows), "hardest": hardest(rows)}
        if not as_json:
            print(format_tables(path.name, out[path.name]["tables"]) + "\n")
            for h in out[path.name]["hardest"]:
                print(f"- {h['id']} ({h['label']}, {h['error_type']}): {h['reason']}\n  claim: {h['claim']}")
            print()
    if as_json:
        print(json.dumps(out, ensure_ascii=False))
    return 0
