"""One name written two ways in a claim and its evidence ("optimal transport" and "OT", "CNNs"
and "convolutional neural networks", "state of the art" and "state-of-the-art", "fine-tuning"
and "finetuning"): the claim is rewritten in the evidence's form before the rules compare
words, so a spelled-out acronym is neither a new name nor an added superlative."""

from __future__ import annotations

import re

from rag.text.normalize import STOPWORDS

_WORD = re.compile(r"[A-Za-z]+")
_ACRONYM = re.compile(r"\b[A-Za-z]*[A-Z][a-z]*[A-Z][A-Za-z]*\b")
_STATE_OF_THE_ART = re.compile(r"\bstate[\s-]of[\s-]the[\s-]art\b", re.I)
RUN_MAX = 6  # words an acronym stands for


def _key(acronym: str) -> str:
    return acronym.lower().removesuffix("s") if len(acronym) > 2 else acronym.lower()


def acronyms(text: str) -> dict[str, str]:
    """Initials -> the acronym as written ("cnn" -> "CNNs", "moe" -> "MoE")."""
    return {_key(m.group(0)): m.group(0) for m in _ACRONYM.finditer(text) if m.group(0).isalpha()}


def _runs(text: str) -> list[tuple[int, int, str]]:
    """(start, end, initials) of every run of 2..RUN_MAX words that begins and ends with a
    content word ("mixture of experts" -> "moe")."""
    words = list(_WORD.finditer(text))
    out = []
    for a in range(len(words)):
        for n in range(2, RUN_MAX + 1):
            run = words[a : a + n]
            if len(run) < n or any(text[run[k].end() : run[k + 1].start()].strip(" -") for k in range(n - 1)):
                break
            if run[0].group(0).lower() in STOPWORDS or run[-1].group(0).lower() in STOPWORDS:
                continue
            if n == 2 and min(len(w.group(0)) for w in run) < 4:  # "an improvement" is no "AI"
                continue
            out.append((run[0].start(), run[-1].end(), "".join(w.group(0)[0] for w in run).lower()))
    return out


def _replace(text: str, spans: list[tuple[int, int, str]]) -> str:
    """`text` with each (start, end, new) span replaced, the first of overlapping ones kept."""
    out, last = [], 0
    for start, end, new in sorted(spans):
        if start >= last:
            out += [text[last:start], new]
            last = end
    return "".join(out) + text[last:]


_HYPHENATED = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")


def _same_spelling(claim: str, evidence: str) -> list[tuple[int, int, str]]:
    """Claim words the evidence writes with or without a hyphen ("fine-tuning", "finetuning")."""
    forms = {w.replace("-", "").lower(): w for w in _HYPHENATED.findall(evidence)}
    out = []
    for m in _HYPHENATED.finditer(claim):
        w = forms.get(m.group(0).replace("-", "").lower())
        if w is not None and w.lower() != m.group(0).lower():
            out.append((m.start(), m.end(), w))
    return out


def in_evidence_form(claim: str, evidence: str) -> tuple[str, str]:
    """(claim, evidence) with "state of the art" hyphenated in both, and the claim's spelled-out
    acronyms of the evidence (and its acronyms the evidence spells out) in the evidence's form."""
    claim, evidence = (_STATE_OF_THE_ART.sub("state-of-the-art", t) for t in (claim, evidence))
    ev_acronyms = acronyms(evidence)
    spans = [(s, e, ev_acronyms[k]) for s, e, k in _runs(claim) if k in ev_acronyms]
    ev_runs = {k: evidence[s:e] for s, e, k in _runs(evidence)}
    for m in _ACRONYM.finditer(claim):
        key = _key(m.group(0))
        if key in ev_runs and key not in ev_acronyms:
            spans.append((m.start(), m.end(), ev_runs[key]))
    return _replace(claim, spans + _same_spelling(claim, evidence)), evidence
