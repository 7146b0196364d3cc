"""Exchanged order: "X rather than Y" for "Y rather than X", "first X, then Y" for "first Y,
then X", "unlike X, Y …" for "unlike Y, X …". The claim keeps the words and the connective but
puts the other thing after it: the same words, the opposite statement."""

from __future__ import annotations

from difflib import SequenceMatcher

from rag.answer import lexicon
from rag.answer.judge_text import BE_FORMS, Tok, tokens

# Connectives whose object (the words after them) is the thing set aside, or the later step;
# one class, one kind of relation ("in contrast to" restates "unlike").
_CONNECTIVES: dict[tuple[str, ...], str] = {
    **dict.fromkeys([("rather", "than"), ("instead", "of"), ("as", "opposed", "to")], "contrast"),
    **dict.fromkeys([("unlike",), ("in", "contrast", "to"), ("in", "contrast", "with")], "contrast"),
    ("then",): "order",
    ("over",): "preference",  # only after a verb of preference: "prioritize X over Y"
}
_PREFER = ("priorit", "prefer", "favor", "favour", "choos", "chose", "select", "emphas")
OBJECT_WORDS = 3  # content words after the connective that name its object
SWAP_WORDS = 3  # content words of each exchanged place (a term and a reworded verb)


def _objects(toks: tuple[Tok, ...]) -> list[tuple[str, str, set[str], set[str]]]:
    """(connective, class, object stems, rest of its clause) of each connective: the first
    content words after it in its clause, and the clause's content words after them (5-letter
    stem prefixes)."""
    words = [t.word for t in toks]
    out = []
    for cue, cls in _CONNECTIVES.items():
        for i in range(len(toks) - len(cue) + 1):
            if tuple(words[i : i + len(cue)]) != cue:
                continue
            if cls == "preference" and not _after_preference(toks, i):
                continue
            obj: set[str] = set()
            rest: set[str] = set()
            for t in toks[i + len(cue) :]:
                if t.boundary:
                    break
                if t.content:
                    (obj if len(obj) < OBJECT_WORDS else rest).add(t.stem[:5])
            out.append((" ".join(cue), cls, obj, rest))
    return out


def _after_preference(toks: tuple[Tok, ...], i: int) -> bool:
    """A verb of preference among the few words before token i, in its clause ("prioritize
    instruction diversity over …"; not "improves over baselines")."""
    for t in reversed(toks[max(0, i - 5) : i]):
        if t.boundary:
            return False
        if t.word.startswith(_PREFER):
            return True
    return False


def exchanged_order(claim: str, evidence: str) -> str | None:
    """A connective of the evidence whose object the claim replaces by other words of the
    evidence, while the claim names the evidence's object elsewhere: the two were exchanged."""
    c_toks, e_toks = tokens(claim), tokens(evidence)
    c_all = {t.stem[:5] for t in c_toks if t.content}
    e_all = {t.stem[:5] for t in e_toks if t.content}
    for e_cue, cls, e_obj, e_rest in _objects(e_toks):
        for c_cue, c_cls, c_obj, c_rest in _objects(c_toks):
            if c_cls != cls:
                continue
            # words only one object has: the claim's stand elsewhere in the evidence and back
            # (not merely further on in the same object: "states" for "the number of states")
            if (c_obj - e_obj) & (e_all - e_obj - e_rest) and (e_obj - c_obj) & (c_all - c_obj - c_rest):
                return f"opposite predicate: {e_cue}/{c_cue} (exchanged)"
    return None


def exchanged_terms(claim: str, evidence: str) -> str | None:
    """Two terms that changed places in the same frame ("leverages A to accelerate B" ->
    "leverages B to accelerate A", "A support for B research" -> "B support for A research"):
    the claim replaces A by B in one place and B by A in another (aligned on content stems).
    A switch between active and passive voice ("A observes B" -> "B is observed by A")
    exchanges them too and says the same, so a "by" between them in one text only excuses it."""
    e_toks, c_toks = tokens(evidence), tokens(claim)
    e = [(i, t) for i, t in enumerate(e_toks) if t.content]
    c = [(i, t) for i, t in enumerate(c_toks) if t.content]
    sm = SequenceMatcher(a=[t.stem for _, t in e], b=[t.stem for _, t in c], autojunk=False)
    swaps = [
        (frozenset(t.stem for _, t in e[i1:i2]), frozenset(t.stem for _, t in c[j1:j2]), e[i1][0], c[j1][0])
        for tag, i1, i2, j1, j2 in sm.get_opcodes()
        if tag == "replace"
    ]
    for k, (gone, new, e_at, c_at) in enumerate(swaps):
        for gone2, new2, e_to, c_to in swaps[k + 1 :]:
            # a term of each place stands in the other (the verb around it may be reworded)
            if not (gone & new2 and new & gone2) or not gone.isdisjoint(new) or (gone & new2) & (new & gone2):
                continue
            if max(len(gone), len(new), len(gone2), len(new2)) > SWAP_WORDS:
                continue  # a clause reworded around the terms, not two terms exchanged
            if _has_by(e_toks[e_at:e_to]) != _has_by(c_toks[c_at:c_to]):
                continue
            return f"opposite predicate: {' '.join(sorted(gone))}/{' '.join(sorted(new))} (exchanged)"
    return None


def _has_by(toks: tuple[Tok, ...]) -> bool:
    return any(t.word == "by" for t in toks)


ARGUMENT_WORDS = 3  # content words on each side of a verb that stand for its arguments (calibrated)


def _arguments(toks: tuple[Tok, ...], i: int) -> tuple[set[str], set[str]]:
    """(before, after): the content stems (5-letter prefixes) next to token i in its clause."""
    out: tuple[set[str], set[str]] = (set(), set())
    for side, step in ((0, -1), (1, 1)):
        k = i + step
        while (
            0 <= k < len(toks)
            and len(out[side]) < ARGUMENT_WORDS
            and not (toks[k].boundary and not toks[k].word.isalpha())
        ):
            if toks[k].content:
                out[side].add(toks[k].stem[:5])
            k += step
    return out


def _passive(toks: tuple[Tok, ...], i: int) -> bool:
    return any(t.word == "by" for t in toks[i + 1 : i + 4]) or any(t.word in BE_FORMS for t in toks[max(0, i - 2) : i])


def _once(toks: tuple[Tok, ...]) -> dict[str, int]:
    """Stem -> index of the lowercase content words a text has once ("CLIP" is a name, no verb)."""
    seen: dict[str, list[int]] = {}
    for i, t in enumerate(toks):
        if t.content and t.raw.islower():
            seen.setdefault(t.stem, []).append(i)
    return {s: ix[0] for s, ix in seen.items() if len(ix) == 1}


_BEFORE_VERB = frozenset("to can could may might will would should must does do did".split())


def _verb(toks: tuple[Tok, ...], i: int) -> bool:
    """Token i is used as a verb: WordNet has it as one and it is inflected as a finite verb
    ("drives", "leveraged") or follows "to" or a modal ("to accelerate", "can inform"), an
    adverb between them allowed ("can potentially explain"); "the generalization gap" is a noun."""
    word = toks[i].word
    if "verb" not in lexicon.parts_of_speech(word):
        return False
    if word.endswith(("s", "ed")) and not word.endswith("ss"):
        return True
    k = i - 1 if i and not toks[i - 1].word.endswith("ly") else i - 2
    return k >= 0 and toks[k].word in _BEFORE_VERB


def exchanged_arguments(claim: str, evidence: str) -> str | None:
    """ "B can explain A" for "A can explain B", "leverages Y to accelerate X" for "leverages X
    to accelerate Y": around a verb both texts have once, in the active voice, the claim has
    before it mostly what the evidence has only after it, and after it what it has only before."""
    c_toks, e_toks = tokens(claim), tokens(evidence)
    c_at, e_at = _once(c_toks), _once(e_toks)
    for stem in c_at.keys() & e_at.keys():
        i, j = c_at[stem], e_at[stem]
        if not (_verb(c_toks, i) and _verb(e_toks, j)) or _passive(c_toks, i) or _passive(e_toks, j):
            continue
        (cl, cr), (el, er) = _arguments(c_toks, i), _arguments(e_toks, j)
        el_only, er_only = el - er, er - el
        if len(cl & er_only) > len(cl & el_only) and len(cr & el_only) > len(cr & er_only):
            return f"opposite predicate: exchanged around '{e_toks[j].word}'"
    return None
