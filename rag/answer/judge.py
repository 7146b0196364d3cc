"""The support judge: does an evidence sentence support a claim, and if not, why not.

There is no offline NLI model, so the judge is rules over the claim and the evidence
(numbers, names, negation, opposite predicates, exchanged terms, overclaims: `judge_numbers`,
`judge_terms`, `judge_rules`, `judge_direction`, `judge_order`, `judge_overclaim`) followed by
the overlap/cosine gate the project calibrated before (content words shared, embedding cosine).
Calibrated on eval/verifier/pairs_calibration.jsonl; eval/verifier/pairs_report.jsonl is
held out for reporting (`rag.evaluation.judge_eval`).
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel

from rag.answer import judge_direction, judge_overclaim, judge_rules, judge_terms
from rag.answer.facets import missing_facets
from rag.answer.judge_forms import in_evidence_form
from rag.answer.judge_numbers import missing_number
from rag.answer.judge_order import exchanged_arguments, exchanged_order, exchanged_terms
from rag.text.normalize import content_stems

# The overlap/cosine gate, first calibrated on tests/data/support_examples.jsonl (22
# hand-written pairs): supported positives have overlap + cosine >= 1.36, unsupported ones
# (wrong facts that reuse the words, other papers' claims) <= 1.29. The rules now catch the
# wrong facts that reuse the words, so the gate only has to keep out unrelated sentences.
LEXICAL_MIN = 0.95  # (near-)verbatim
# Cosine alone: 0.92 before the rules caught reworded wrong facts; on the 501 calibration pairs
# no unfaithful claim that passes the rules reaches 0.81, faithful rewrites often do.
COSINE_MIN = 0.81
COMBINED_MIN = 1.33

SUPPORTED = "supported"


class Judgement(BaseModel):
    """A support decision and why (`reason` names the rule that rejected the claim)."""

    supported: bool
    reason: str | None = None


Rule = Callable[[str, str], "str | None"]


def _number_rule(claim: str, evidence: str) -> str | None:
    n = missing_number(claim, evidence)
    return None if n is None else f"number not in evidence: {n}"


def _facet_rule(claim: str, evidence: str) -> str | None:
    """A kind of data or family of methods the evidence never names ("videos" for "images")."""
    kinds = missing_facets(claim, evidence)
    return f"name not in evidence: {kinds[0]}" if kinds else None


RULES: tuple[Rule, ...] = (
    _number_rule,
    judge_terms.names,
    _facet_rule,
    judge_rules.negation,
    judge_direction.direction,
    judge_direction.added_opposite,
    exchanged_order,
    exchanged_terms,
    exchanged_arguments,
    judge_overclaim.overclaim,
    judge_terms.term_swaps,
    judge_terms.modifier_swaps,
    judge_overclaim.novel_content,
)


def lexical_support(claim: str, evidence: str) -> float:
    """Share of the claim's content words found in the evidence (stemmed)."""
    c = set(content_stems(claim))
    if not c:
        return 0.0
    return len(c & set(content_stems(evidence))) / len(c)


def rule_reason(
    claim: str, evidence: str, label: str | None = None, similar: judge_terms.Similar | None = None
) -> str | None:
    """The first rule that rejects the claim, or None."""
    for rule in RULES:
        if rule is judge_terms.names:
            reason = judge_terms.names(claim, evidence, label)
        elif rule is judge_terms.term_swaps:
            reason = judge_terms.term_swaps(claim, evidence, similar)
        else:
            reason = rule(claim, evidence)
        if reason:
            return reason
    return None


def judge(
    claim: str,
    evidence: str,
    *,
    cosine: float | None = None,
    lexical_min: float = LEXICAL_MIN,
    cosine_min: float = COSINE_MIN,
    combined_min: float = COMBINED_MIN,
    similar: judge_terms.Similar | None = None,
    label: str | None = None,
) -> Judgement:
    """Does `evidence` (one sentence) support `claim`? Rules first, then overlap + cosine.
    `similar` (an embedding cosine of two short texts) enables the swapped-term rule; `label`
    is the cited paper's own name for its method (it may stand for "our method")."""
    if not claim.strip() or not evidence.strip():
        return Judgement(supported=False, reason="empty claim or evidence")
    claim, evidence = in_evidence_form(claim, evidence)
    reason = rule_reason(claim, evidence, label, similar) or (
        judge_terms.swaps(claim, evidence, similar) if similar else None
    )
    if reason:
        return Judgement(supported=False, reason=reason)
    lex = lexical_support(claim, evidence)
    cos = cosine if cosine is not None else 0.0
    if lex >= lexical_min or cos >= cosine_min or (lex + cos) >= combined_min:
        return Judgement(supported=True, reason=SUPPORTED)
    return Judgement(supported=False, reason=f"too little in common: overlap {lex:.2f}, cosine {cos:.2f}")
