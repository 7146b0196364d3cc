"""A question's words against the paper it is about: words written in another form, and a
yes/no question about a property the paper's abstract never mentions."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rag.answer.acronyms import acronym_stems
from rag.answer.asked_object import object_head
from rag.answer.guarantees import theory_forms
from rag.answer.selection import question_terms
from rag.corpus.label import display_label
from rag.text.normalize import content_stems

if TYPE_CHECKING:
    from rag.index.snapshot import Snapshot

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


def other_forms(question: str, text: str) -> frozenset[str]:
    """Stems of the question's words that the text writes in another form: a hyphenated word
    written apart, words written as their acronym, or words for theory where the text states a
    guarantee."""
    return written_apart(question, text) | acronym_stems(question, text) | theory_forms(question, text)


# "Does X use …?", "Is X …?", "Can it …?": the question asks whether the paper has a property.
_YES_NO = re.compile(r"^\s*(?:does|do|did|is|are|was|were|can|could|has|have|will|would)\b", re.I)


def unsaid_property(question: str, label: str, terms: list[str], have: set[str] | frozenset[str]) -> str | None:
    """For a yes/no question about one paper (named, or the one discussed), the asked property
    when not one of its words is in the paper: "Does BlockBoost use neural networks?" of a
    boosting method's abstract that never writes "neural" or "network". The abstract cannot
    confirm or deny it, and its sentences about the paper would read as an answer. Nor when
    it writes the verb but not the thing asked about (`asked_object.object_head`: "Does it
    prune the attention heads?" of a method that prunes tokens)."""
    asked = _unsaid_stems(question, label, terms, have)
    return f"not in the paper: {' '.join(asked)}" if asked else None


def unsaid_words(question: str, label: str, terms: list[str], have: set[str] | frozenset[str]) -> list[str]:
    """The question's words for that property, as the user wrote them ("neural", "networks"),
    for the note on the refusal; [] when the property is not unsaid."""
    asked = set(_unsaid_stems(question, label, terms, have))
    found = [w for w in re.findall(r"[\w-]+", question) if asked & set(content_stems(w))]
    return list(dict.fromkeys(found))


def _unsaid_stems(question: str, label: str, terms: list[str], have: set[str] | frozenset[str]) -> list[str]:
    if not _YES_NO.match(question):
        return []
    name = set(content_stems(label))
    asked = [t for t in terms if t not in name]
    if not asked:
        return []
    if not any(t in have for t in asked):
        return asked
    head = object_head(question, name)
    return [head] if head and head not in have else []


def unsaid_note(question: str, focus: list[str], snap: Snapshot) -> str | None:
    """On a refused yes/no question about one paper (discussed, or the one the question names by
    its label or its title's words), the words of the asked property that its abstract never
    uses, so the refusal says what was checked: "The abstract of GENIE never uses “neural” or
    “networks”."; the words that name the paper are not the property."""
    by_title = snap.referenced_in(question)
    pids = focus or sorted(p for p in snap.named_in(question) | by_title if p in snap.papers)
    if len(pids) != 1:
        return None
    p = snap.papers[pids[0]]
    have = set(snap.vocabulary.paper_stems.get(p.paper_id, set()))
    have |= other_forms(question, p.abstract)
    # The words the answerability check left out of the property (`evidence.features`).
    name = f"{p.label} {p.title or ''}" if p.paper_id in by_title else p.label
    words = [f"“{w}”" for w in unsaid_words(question, name, question_terms(question), have)]
    if not words:
        return None
    listed = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"
    return f"The abstract of {display_label(p.label, p.title)} never uses {listed}."
