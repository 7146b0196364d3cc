"""Judged relevance of listed papers (TREC-style qrels) for "which papers" lists at scale.

An eval set's multi-paper gold set is complete only over the corpus it was written for: with
thousands of real abstracts indexed, a list's further papers are neither gold nor known to be
wrong, so set recall alone rewards a long list. A judgments file grades the papers a list
named, by hand, from their title and abstract:

    {"id": "<question id>", "url": "<paper url>", "grade": 0 | 1 | 2, "why": "..."}

2: answers the question (every qualifier met); 1: on the topic, a qualifier loosely met;
0: does not belong. A paper of the set's own corpus (`complete`) is judged by the gold set.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from rag.text.files import TextFileError, parse_json, split_lines

GRADES = (0, 1, 2)


class JudgmentsError(ValueError):
    """A judgments file that cannot be read."""


class Judgments(BaseModel):
    """Grades by question id and paper url; `complete`: paper ids the eval set's gold decides."""

    model_config = ConfigDict(frozen=True)

    grades: dict[str, dict[str, int]] = {}
    complete: frozenset[str] = frozenset()

    def grade(self, qid: str, gold: Iterable[str], paper_id: str, url: str | None) -> int | None:
        """The paper's grade for the question (None: not judged)."""
        if paper_id in set(gold):
            return 2
        judged = self.grades.get(qid, {}).get(url) if url else None
        if judged is not None:
            return judged
        return 0 if paper_id in self.complete else None


def parse_judgments(text: str, *, source: str = "judgments") -> dict[str, dict[str, int]]:
    """Grades by question id, then url. A bad line is an error naming its line number, and so
    is a paper graded twice for one question with two different grades."""
    out: dict[str, dict[str, int]] = {}
    for n, line in enumerate(split_lines(text), 1):
        if not line.strip():
            continue
        row = _row(line, f"{source}:{n}")
        qid, url, grade = row["id"], row["url"], row["grade"]
        seen = out.setdefault(qid, {})
        if url in seen and seen[url] != grade:
            raise JudgmentsError(f"{source}:{n}: {qid} {url} graded {seen[url]} and {grade}")
        seen[url] = grade
    return out


def _row(line: str, where: str) -> dict[str, Any]:
    try:
        row = parse_json(line)
    except TextFileError as e:
        raise JudgmentsError(f"{where}: {e}") from None
    if not isinstance(row, dict):
        raise JudgmentsError(f"{where}: expected an object")
    for key in ("id", "url"):
        if not isinstance(row.get(key), str) or not row[key].strip():
            raise JudgmentsError(f"{where}: '{key}' must be a non-empty string")
    grade = row.get("grade")
    if isinstance(grade, bool) or grade not in GRADES:
        raise JudgmentsError(f"{where}: 'grade' must be 0, 1 or 2")
    return row


def load_judgments(paths: list[Path], complete: Iterable[str] = ()) -> Judgments:
    grades: dict[str, dict[str, int]] = {}
    for p in paths:
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as e:
            raise JudgmentsError(f"{p}: {e.strerror or e}") from None
        for qid, by_url in parse_judgments(text, source=str(p)).items():
            grades.setdefault(qid, {}).update(by_url)
    return Judgments(grades=grades, complete=frozenset(complete))


def list_scores(case: dict[str, Any], row: dict[str, Any], judgments: Judgments) -> dict[str, Any]:
    """For an answered list (a multi-paper question, or an unanswerable one the system answered):
    the share of its judged papers that answer (grade 2), that are at least on the topic (grade
    >= 1), and the share of its papers judged at all."""
    if row.get("refused") or row.get("error") or case["type"] not in ("multi", "unanswerable"):
        return {}
    listed: dict[str, str | None] = {}
    for c in row.get("citations") or []:
        listed.setdefault(c["paper_id"], c.get("url"))
    if not listed:
        return {}
    gold = case.get("gold_ids") or []
    grades = [judgments.grade(case["id"], gold, pid, url) for pid, url in listed.items()]
    judged = [g for g in grades if g is not None]
    out: dict[str, Any] = {"list_judged": len(judged) / len(grades)}
    if judged:
        out["list_precision"] = sum(g == 2 for g in judged) / len(judged)
        out["list_precision_lenient"] = sum(g >= 1 for g in judged) / len(judged)
    return out
