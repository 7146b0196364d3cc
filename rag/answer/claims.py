"""Check claims someone wrote against the papers they cite (`rag verify`, the app's "Check
claims" box): the judge against a given evidence sentence, or the paper's best sentence."""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import BaseModel

from rag.answer.judge import judge, lexical_support
from rag.text.guard import instruction_like
from rag.text.normalize import clean, sentence_spans

CosineFn = Callable[[str, str], float]
_PAPER_MARKER = re.compile(r"\[([^\[\]]{1,400})\]")


class ClaimCheck(BaseModel):
    """The verdict on one claim: supported, the sentence it was checked against, and why."""

    supported: bool
    evidence_quote: str | None = None
    reason: str | None = None


def check_claim(
    claim: str,
    sentences: list[str],
    *,
    cosine: CosineFn | None = None,
    label: str | None = None,
    evidence: str | None = None,
) -> ClaimCheck:
    """Judge `claim` against `evidence` when given, else against each of the paper's
    `sentences`: the best supporting one, or (none supports it) the closest one and the
    judge's reason against it."""
    candidates = [evidence] if evidence is not None else [s for s in sentences if not instruction_like(s)]
    best: tuple[bool, float, str, str | None] | None = None
    for quote in candidates:
        q = clean(quote)
        cos = cosine(claim, q) if cosine else 0.0
        j = judge(claim, q, cosine=cos, similar=cosine, label=label)
        key = (j.supported, lexical_support(claim, q) + cos, quote, j.reason)
        if best is None or key[:2] > best[:2]:
            best = key
    if best is None:
        return ClaimCheck(supported=False, reason="the paper has no sentences to check against")
    return ClaimCheck(supported=best[0], evidence_quote=best[2], reason=best[3])


def marked_claims(text: str) -> list[tuple[str, list[str]]]:
    """ "A holds [p1]. B too [p2, p3]." -> [("A holds.", ["p1"]), ("B too.", ["p2", "p3"])]:
    the sentences of a text with the paper ids in their square-bracket markers."""
    out: list[tuple[str, list[str]]] = []
    for s, e in sentence_spans(text or "", glue_short=False):
        sent = text[s:e]
        ids = [i.strip() for m in _PAPER_MARKER.finditer(sent) for i in m.group(1).split(",") if i.strip()]
        bare = re.sub(r"\s+([.,;:!?])", r"\1", _PAPER_MARKER.sub("", sent)).strip()
        if bare:
            out.append((bare, list(dict.fromkeys(ids))))
    return out
