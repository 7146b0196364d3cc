"""Exchanged order: "X rather than Y" for "Y rather than X", "first X, then Y" for "first Y,
then X", "unlike X, Y …" for "unlike Y, X …". The claim keeps the words and the connective but
puts the other thing after it: the same words, the opposite statement."""

from __future__ import annotations

from rag.answer.judge_text import Tok, tokens

# Connectives whose object (the words after them) is the thing set aside, or the later step;
# one class, one kind of relation ("in contrast to" restates "unlike").
_CONNECTIVES: dict[tuple[str, ...], str] = {
    **dict.fromkeys([("rather", "than"), ("instead", "of"), ("as", "opposed", "to")], "contrast"),
    **dict.fromkeys([("unlike",), ("in", "contrast", "to"), ("in", "contrast", "with")], "contrast"),
    ("then",): "order",
}
OBJECT_WORDS = 3  # content words after the connective that name its object


def _objects(toks: tuple[Tok, ...]) -> list[tuple[str, str, set[str]]]:
    """(connective, class, object stems) of each connective: the first content words after
    it in its clause (5-letter stem prefixes)."""
    words = [t.word for t in toks]
    out = []
    for cue, cls in _CONNECTIVES.items():
        for i in range(len(toks) - len(cue) + 1):
            if tuple(words[i : i + len(cue)]) != cue:
                continue
            obj: set[str] = set()
            for t in toks[i + len(cue) :]:
                if t.boundary or len(obj) >= OBJECT_WORDS:
                    break
                if t.content:
                    obj.add(t.stem[:5])
            out.append((" ".join(cue), cls, obj))
    return out


def exchanged_order(claim: str, evidence: str) -> str | None:
    """A connective of the evidence whose object the claim replaces by other words of the
    evidence, while the claim names the evidence's object elsewhere: the two were exchanged."""
    c_toks, e_toks = tokens(claim), tokens(evidence)
    c_all = {t.stem[:5] for t in c_toks if t.content}
    e_all = {t.stem[:5] for t in e_toks if t.content}
    for e_cue, cls, e_obj in _objects(e_toks):
        for c_cue, c_cls, c_obj in _objects(c_toks):
            if c_cls != cls:
                continue
            # words only one object has: the claim's stand elsewhere in the evidence and back
            if (c_obj - e_obj) & (e_all - e_obj) and (e_obj - c_obj) & (c_all - c_obj):
                return f"opposite predicate: {e_cue}/{c_cue} (exchanged)"
    return None
