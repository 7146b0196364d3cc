"""A question's words against the paper it is about: words written in another form, and a
yes/no question about a property the paper's abstract never mentions."""

from __future__ import annotations

import re

from rag.text.normalize import content_stems

_COMPOUND = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+\b")
_SEAM = r"(?:\s+|\s*[-\u2010-\u2015]+\s*)"  # a space, hyphen, or en/em dash ("Lomb--Scargle")


def written_apart(question: str, text: str) -> frozenset[str]:
    """The question's hyphenated words ("held-out") that the text writes with a space or a
    dash instead ("held out"), as stems: a compound is a rare, heavy stem, and a paper using
    it in another spelling would lose it on top of the parts it has."""
    out = set()
    for m in _COMPOUND.finditer(question):
        stem = content_stems(m.group(0))
        if "-" not in (stem[0] if stem else ""):
            continue
        seam = _SEAM.join(re.escape(p) for p in m.group(0).split("-"))
        if re.search(rf"(?<![\w-]){seam}(?![\w-])", text, re.I):
            out.add(stem[0])
    return frozenset(out)


# "Does X use …?", "Is X …?", "Can it …?": the question asks whether the paper has a property.
_YES_NO = re.compile(r"^\s*(?:does|do|did|is|are|was|were|can|could|has|have|will|would)\b", re.I)


def unsaid_property(question: str, label: str, terms: list[str], have: set[str] | frozenset[str]) -> str | None:
    """For a yes/no question about one paper (named, or the one discussed), the asked property
    when not one of its words is in the paper: "Does BlockBoost use neural networks?" of a
    boosting method's abstract that never writes "neural" or "network". The abstract cannot
    confirm or deny it, and its sentences about the paper would read as an answer."""
    if not _YES_NO.match(question):
        return None
    name = set(content_stems(label))
    asked = [t for t in terms if t not in name]
    if not asked or any(t in have for t in asked):
        return None
    return f"not in the paper: {' '.join(asked)}"
