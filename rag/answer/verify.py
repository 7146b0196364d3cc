"""Parse LLM output into cited sentences and verify each against the sentence it cites."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from rag.answer.judge import judge, lexical_support
from rag.corpus.label import coined_name
from rag.text.guard import instruction_like
from rag.text.normalize import clean, sentence_spans
from rag.types import REFUSAL

_MARKER_GROUP = re.compile(r"\[\s*(\d+(?:\s*[,;]\s*\d+)*)\s*\]")
_PREFIX = re.compile(r"^\s*(?:answer|response|a)\s*:\s*", re.I)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)])\s+")
_LABEL_ECHO = re.compile(r"^\(\s*[^()]{1,60}\)\s+(?=[A-Z])")
_REFUSAL_HINTS = re.compile(
    r"do(?:es)? not contain the answer|not (?:mentioned|stated|provided|given) in the (?:evidence|abstracts?)"
    r"|(?:evidence|abstracts?) (?:does|do) not (?:say|mention|answer|provide)|cannot be answered",
    re.I,
)


@dataclass
class Claim:
    text: str
    citations: list[int] = field(default_factory=list)


_AFTER_PERIOD = re.compile(r"([.!?])((?:\s*\[\s*\d+(?:\s*[,;]\s*\d+)*\s*\])+)")


# No evidence list has a million items; longer digit runs are junk (and `int()` refuses
# strings over 4300 digits, which would raise instead of parsing).
_MAX_CITE_DIGITS = 6


def cite_numbers(group: str) -> list[int]:
    """ "1, 3;2" -> [1, 3, 2]: the numbers of one marker group, junk-length numbers dropped."""
    parts = (n.strip() for n in re.split(r"[,;]", group))
    return [int(n) for n in parts if n and len(n) <= _MAX_CITE_DIGITS]


def markers_before_period(text: str) -> str:
    """ "A is B. [1] C" -> "A is B [1]. C": a marker group after the period closes that sentence."""
    return _AFTER_PERIOD.sub(lambda m: " " + m.group(2).strip() + m.group(1), text)


def is_refusal(text: str) -> bool:
    return REFUSAL.lower().rstrip(".") in text.lower() or bool(_REFUSAL_HINTS.search(text))


def parse_output(text: str) -> tuple[list[Claim], bool]:
    """(claims, refused): sentences with the citation numbers that follow or close them.

    Pure: tolerant of bullets, "Answer:" prefixes, `[1, 2]` and `[1][2]` groups, markers
    before the final period, and junk. A claim with no marker gets no citations.
    """
    if not text or not text.strip():
        return [], False
    text = markers_before_period(text.replace("\r", ""))
    lines = [_BULLET.sub("", _PREFIX.sub("", ln)).strip() for ln in text.split("\n")]
    pieces = [ln[s:e] for ln in lines if ln for s, e in sentence_spans(ln, glue_short=False)]
    claims: list[Claim] = []
    refused = False
    for sent in pieces:
        lead = re.match(r"^\s*((?:\[[\d,;\s]+\]\s*)+)", sent)
        if lead and claims:  # "… end. [1] Next …": the marker closes the previous sentence
            for g in _MARKER_GROUP.findall(lead.group(1)):
                claims[-1].citations += cite_numbers(g)
            claims[-1].citations = list(dict.fromkeys(claims[-1].citations))
            sent = sent[lead.end() :]
        nums = [n for g in _MARKER_GROUP.findall(sent) for n in cite_numbers(g)]
        bare = clean(_MARKER_GROUP.sub("", sent)).strip()
        bare = re.sub(r"\s+([.,;:!?])", r"\1", bare)
        bare = _LABEL_ECHO.sub("", bare)  # models echo the "(label)" of the evidence line
        if not bare.strip(" .") and claims and nums:  # a marker group left alone after the period
            claims[-1].citations += [n for n in nums if n not in claims[-1].citations]
            continue
        if not bare.strip(" ."):
            continue
        if is_refusal(bare):
            refused = True
            continue
        claims.append(Claim(bare, list(dict.fromkeys(nums))))
    return claims, refused and not claims


@dataclass
class EvidenceItem:
    n: int
    paper_id: str
    quote: str


@dataclass
class Verified:
    text: str
    citations: list[int]  # evidence numbers kept (existing, supporting)
    supported: bool
    evidence_quote: str | None
    paper_id: str | None
    reason: str | None = None  # the judge's reason (why kept, or why dropped)


CosineFn = Callable[[str, str], float]


def verify_claim(
    claim: Claim,
    evidence: dict[int, EvidenceItem],
    paper_sentences: dict[str, list[str]],
    abstracts: dict[str, str],
    cosine: CosineFn | None = None,
    *,
    repair: bool = True,
    labels: dict[str, str] | None = None,
) -> Verified:
    """Keep only citations that exist; the claim is supported when a sentence of a cited
    paper supports it (`judge.judge`: numbers, names, negation, opposite predicates,
    overclaims, then content words + embedding cosine). Unsupported claims carry the judge's
    reason against the evidence they cite.

    With `repair`, a sentence that cites nothing valid (small models often drop markers) is
    checked against every evidence item and, if one supports it, cited to that one.
    """
    cites = [n for n in claim.citations if n in evidence]
    if not cites and repair:
        cites = sorted(evidence)
    if instruction_like(claim.text):  # an LLM repeating an injected order is never released
        return Verified(claim.text, cites, False, None, None, "instruction-like sentence")
    best: tuple[float, str, str, int, str | None] | None = None
    first_reason: str | None = None
    for n in cites:
        pid = evidence[n].paper_id
        label = (labels or {}).get(pid) or coined_name(abstracts.get(pid, ""))
        candidates = [evidence[n].quote] + [s for s in paper_sentences.get(pid, []) if s != evidence[n].quote]
        for quote in candidates:
            # An injected instruction is in the cited paper, so the judge would accept a
            # claim that repeats it; it is never support (same test as the ingest flag).
            if instruction_like(quote):
                continue
            q = clean(quote)
            cos = cosine(claim.text, q) if cosine else 0.0
            j = judge(claim.text, q, cosine=cos, similar=cosine, label=label)
            first_reason = first_reason or j.reason
            score = lexical_support(claim.text, q) + cos
            if j.supported and (best is None or score > best[0]):
                best = (score, quote, pid, n, j.reason)
    if best is None:
        return Verified(claim.text, cites, False, None, None, first_reason or "no cited evidence")
    _, quote, pid, n, reason = best
    kept = [m for m in cites if evidence[m].paper_id == pid] or [n]
    return Verified(claim.text, kept, True, quote, pid, reason)
