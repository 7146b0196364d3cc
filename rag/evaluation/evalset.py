"""Eval sets: the JSONL schema, loading, and the `--check` validator."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from rag.text.files import TextFileError, decode, one_line, parse_json, short, split_lines
from rag.text.normalize import match_form, words


class Turn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    role: Literal["user", "assistant"]
    content: str
    paper_ids: list[str] | None = None


class EvalCase(BaseModel):
    """One line of an eval set. Unknown extra fields are ignored."""

    model_config = ConfigDict(extra="ignore")
    id: str
    type: Literal["single", "multi", "unanswerable", "followup"]
    question: str
    history: list[Turn] = Field(default_factory=list)
    gold_ids: list[str] = Field(default_factory=list)
    answer_facts: list[str] = Field(default_factory=list)
    evidence: str | list[str] = ""
    lexical: bool = False
    needs_review: bool = False
    # Kinds of question within a type (e.g. "near_miss", "history_text", "switch", "ordinal").
    tags: list[str] = Field(default_factory=list)
    # Why this row may use the same (paper, evidence sentence) as a row of the other set.
    shared_evidence: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> EvalCase:
        if self.needs_review:  # drafts from the app's feedback: gold fields still empty
            return self
        if self.type == "unanswerable":
            if self.gold_ids or self.answer_facts or self.evidence_list():
                raise ValueError("unanswerable questions have empty gold_ids, answer_facts and evidence")
        elif not self.gold_ids:
            raise ValueError(f"a {self.type} question needs gold_ids")
        if self.type == "single" and len(self.gold_ids) != 1:
            raise ValueError("a single question has exactly one gold id")
        if self.type == "multi" and not 2 <= len(self.gold_ids) <= 4:
            raise ValueError("a multi question has 2-4 gold ids")
        if self.type == "followup" and len(self.history) < 2:
            raise ValueError("a followup question needs a history of at least two turns")
        if self.type not in ("followup", "unanswerable") and self.history:
            raise ValueError("only followup and unanswerable questions carry a history")
        return self

    def evidence_list(self) -> list[str]:
        ev = [self.evidence] if isinstance(self.evidence, str) else self.evidence
        return [e for e in ev if e]

    def row(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class EvalSetError(ValueError):
    pass


def load_set(path: Path, *, include_drafts: bool = False) -> list[EvalCase]:
    """Parse and schema-check a set; errors name file and line. Drafts are skipped."""
    where = one_line(str(path), None)
    try:
        text = decode(path.read_bytes())
    except OSError as e:
        raise EvalSetError(f"{where}: cannot read ({e.strerror or type(e).__name__})") from None
    except TextFileError as e:
        raise EvalSetError(f"{where}:{e.line}: {e.reason}" if e.line else f"{where}: {e.reason}") from None
    cases: list[EvalCase] = []
    seen: set[str] = set()
    for lineno, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        try:
            case = EvalCase.model_validate(parse_json(line))
        except TextFileError as e:
            raise EvalSetError(f"{where}:{lineno}: {e.reason}") from None
        except ValidationError as e:
            first = e.errors()[0]
            loc = ".".join(str(x) for x in first["loc"]) or "line"
            raise EvalSetError(f"{where}:{lineno}: {one_line(loc, 80)}: {one_line(first['msg'])}") from None
        if case.id in seen:
            raise EvalSetError(f"{where}:{lineno}: duplicate id {short(case.id)}")
        seen.add(case.id)
        if include_drafts or not case.needs_review:
            cases.append(case)
    if not cases:
        raise EvalSetError(f"{where}: no questions")
    return cases


def longest_shared_ngram(question: str, text: str) -> int:
    """Length of the longest run of consecutive words the question shares with the text."""
    q, t = words(question), words(text)
    tset: set[tuple[str, ...]] = set()
    best = 0
    for n in range(1, len(q) + 1):
        tset = {tuple(t[i : i + n]) for i in range(len(t) - n + 1)}
        if any(tuple(q[i : i + n]) in tset for i in range(len(q) - n + 1)):
            best = n
        else:
            break
    return best


_REFERS_BACK = (
    r"\b(it|its|they|their|them|this|that|these|those|one|ones|first|second|third|last|both|other|former|latter)\b"
)


def check_set(
    cases: list[EvalCase], abstracts: dict[str, str], *, max_ngram: int = 6, records: dict[str, str] | None = None
) -> tuple[list[str], list[str]]:
    """The `--check` rules. Returns (problems, notes); problems make the check fail.
    `records`: each paper's title and authors, where a row tagged `authors` finds its facts."""
    problems: list[str] = []
    notes: list[str] = []
    for c in cases:
        for g in c.gold_ids:
            if g not in abstracts:
                problems.append(f"{c.id}: unknown paper id {g!r}")
        gold_texts = [abstracts[g] for g in c.gold_ids if g in abstracts]
        for ev in c.evidence_list():
            if not any(ev in t for t in gold_texts):
                problems.append(f"{c.id}: evidence not verbatim in a gold abstract: {ev[:60]!r}")
        facts_in = gold_texts + ([(records or {}).get(g, "") for g in c.gold_ids] if "authors" in c.tags else [])
        for fact in c.answer_facts:
            if not any(match_form(fact) in match_form(t) for t in facts_in):
                problems.append(f"{c.id}: fact {fact!r} not in a gold abstract")
        if not c.lexical and gold_texts:
            n = max(longest_shared_ngram(c.question, t) for t in gold_texts)
            notes.append(f"{c.id}: longest shared word n-gram {n}")
            if n >= max_ngram:
                problems.append(f"{c.id}: marked lexical=false but shares a {n}-word run with its abstract")
        if c.type == "followup" and not re.search(_REFERS_BACK, c.question, re.I):
            # Tagged kinds may point by name or title word, or move on ("switch"): a note only.
            (notes if c.tags else problems).append(f"{c.id}: a followup should refer back (it/they/this …)")
    return problems, notes
