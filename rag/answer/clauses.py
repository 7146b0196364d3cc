"""Which part of a question asks: its asking sentences, and within them the clause that asks."""

from __future__ import annotations

import re
from functools import lru_cache

_ANY_WH = re.compile(r"\b(?:what|which|how|why|who|whom|whose|when|where)\b", re.I)
_SENTENCE_END = re.compile(r"(?<=[.:;?!])\s+")
_OPENS = re.compile(
    r"[,:;]\s*(?:(?:and|or|but|so)\s+)?(?:(?:at|in|on|for|from|by|with|to|of|across|over|under|among|between|within|into|through|during|against|after|before)\s+)?$",
    re.I,
)


@lru_cache(maxsize=1024)  # pure; read per candidate paper and per sentence scoring of one answer
def ask_clause(question: str) -> str:
    """The part of a question that asks ("… over channels with erasures, what two design
    elements do the algorithms rest on?" -> "what two design elements …"): its last sentence,
    from the last wh-word that opens a clause (else the first one). The rest of a long
    question describes the paper, which the abstract's opening sentences match as well."""
    parts = [p for p in _SENTENCE_END.split(question.strip()) if p]
    last = parts[-1] if parts else question
    found = list(_ANY_WH.finditer(last))
    # "…, and at which levels does it …": a coordinated clause opens after the conjunction.
    opening = [m for m in found if m.start() == 0 or _OPENS.search(last[: m.start()])]
    m = opening[-1] if opening else (found[0] if found else None)
    clause = last[m.start() :] if m else last
    # "…, according to the streaming clustering paper?" says where to look, not what is asked.
    return _SOURCE.sub("", clause) if m else clause


_SOURCE = re.compile(
    r",?\s+(?:according\s+to|as\s+(?:described|reported|stated|argued|shown|put|claimed)\s+(?:by|in))"
    r"\s+(?:the|its|their|this)\b[^,?]*(?=\?\s*$)",
    re.I,
)


_AUXILIARY = {"does", "do", "did", "is", "are", "was", "were", "has", "have", "had"}


def asks_own_noun(span: str) -> bool:
    """ "which other map types does a new benchmark include" asks for map types: the wh-word's
    noun phrase ends at the auxiliary, and a named thing after it is not what is asked
    ("what did they use as benchmarks" has no noun of its own, and asks for the benchmarks)."""
    words = span.lower().split()[1:]
    first_aux = next((i for i, w in enumerate(words) if w in _AUXILIARY), None)
    return first_aux is not None and first_aux > 0


# A sentence ends before a capital letter: "U.S. publicly traded" and "e.g. for" go on.
_STATEMENT_END = re.compile(r"(?<=[.!])\s+(?=[A-Z])")


def asked_part(question: str) -> str:
    """The question without the statements that set it up ("A study probed how much LLMs
    know about X. For which companies …?" asks about companies, not for an amount)."""
    parts, first = _statements(question)
    return " ".join(parts[first:])


def _statements(question: str) -> tuple[list[str], int]:
    """The question's sentences, and the index of the first that asks (has a "?"; else 0)."""
    parts = _STATEMENT_END.split(question.strip())
    return parts, next((i for i, p in enumerate(parts) if "?" in p), 0)


# The user's own situation, said before the question: "I'm pretraining a …", "Our team evaluates …".
_FIRST_PERSON = re.compile(r"\b(?:I|I'm|I've|I'd|me|my|we|we're|we've|our|us)\b", re.I)


def without_user_context(question: str) -> str:
    """The question without the statements before it that tell the user's own situation in the
    first person ("Our team evaluates a credit-risk classifier, but … . Is there a way to …?"):
    their words and names are the user's setting, which no abstract need share. Statements
    about a paper ("A study probed …") stay."""
    parts, first = _statements(question)
    kept = [p for i, p in enumerate(parts) if i >= first or not _FIRST_PERSON.search(p)]
    return " ".join(kept) or question
