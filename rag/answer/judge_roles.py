"""Who does what to whom. Around a comparative predicate, "A outperforms B" and "B outperforms
A" use the same words on the same side of the lexicon but say the opposite; "B is outperformed
by A" says the same with the sides and the roles both exchanged. And "both X and Y" is not
"either X or Y"."""

from __future__ import annotations

from rag.answer.judge_text import Tok, is_negation, window

# Function words: the roles are the other words ("method" is one, though the retriever's
# stopwords drop it).
_FUNCTION = frozenset(
    """a an the our their its his her this that these those we they it he she you i is are was were be been being
    has have had do does did can could may might will would shall should must than by over on in of to for with
    at as from into onto about across against between among within without via per and or not no also both
    each every all any some such which who whom whose""".split()
)


# Comparatives that take an object without "than".
_TRANSITIVE = frozenset(
    """outperform outperforms outperformed outperforming surpass surpasses surpassed exceed exceeds exceeded beat
    beats underperform underperforms underperformed trail trails trailed lag lags lead leads""".split()
)


_COORDINATORS = frozenset({"and", "or"})

# What introduces the other side of a comparison: right after the comparative ("is
# outperformed by A", "superior performance over B"), or further on in its clause ("faster
# convergence to the GP than B", "faster compared to B").
_NEAR_COMPARED = frozenset({"by", "over"})
_FAR_COMPARED = frozenset({"than", "compared"})
COMPARED_WITHIN = 6  # tokens from a comparative to its "than"


# Nouns that name no particular thing ("our approach" is "the method"): they say nothing about
# which of the compared things is which (5-letter prefixes, as the roles are: "appro" drops
# "approximation" too, which can only make an exchange harder to see).
_GENERIC = frozenset("appro metho model frame techn algor work works resul solut syste".split())


def _content(t: Tok) -> bool:
    return t.word[:1].isalpha() and not t.word.endswith("ly") and t.word not in _FUNCTION


def roles(toks: tuple[Tok, ...], i: int, before: int = 6, after: int = 4) -> tuple[set[str], set[str]]:
    """(subject, object) words of the comparative predicate at token i ("A outperforms B",
    "A is faster than B", "B is outperformed by A"): content stems before and after it in its
    clause (5-letter prefixes). Other predicates have no roles ("labels are scarce" = "scarce
    labels")."""
    out: tuple[set[str], set[str]] = (set(), set())
    if not (toks[i].word in _TRANSITIVE or _compares(toks, i)):
        return out
    for side, step, limit in ((0, -1, before), (1, 1, after)):
        k, got = i + step, 0
        # "and"/"or" coordinate the compared things ("A outperforms B and C"), no clause end
        while 0 <= k < len(toks) and got < limit and (not toks[k].boundary or toks[k].word in _COORDINATORS):
            if _content(toks[k]):
                out[side].add(toks[k].stem[:5])
                if "-" in toks[k].word:  # "CPD-constrained models" is about CPD, as "CPD" is
                    out[side].add(toks[k].word.split("-")[0][:5])
                got += 1
            k += step
    return out


def _compares(toks: tuple[Tok, ...], i: int) -> bool:
    """The comparative at token i is followed by its other side: "by"/"over" right after it
    ("outperformed by"), "than"/"compared" further on in its clause ("faster convergence to
    the GP than"; a later "by" is an agent: "upper bound posited by")."""
    for k, t in enumerate(toks[i + 1 : i + 1 + COMPARED_WITHIN]):
        if t.word in _FAR_COMPARED or (k < 2 and t.word in _NEAR_COMPARED):
            return True
        if t.boundary:
            return False
    return False


def exchanged(e_roles: tuple[set[str], set[str]], c_roles: tuple[set[str], set[str]]) -> bool:
    """The claim's subject is the evidence's object and its object the evidence's subject
    (by the words only one of the two evidence roles has)."""
    (es, eo), (cs, co) = e_roles, c_roles
    e_subject, e_object = es - eo, eo - es
    if cs & e_object and co & e_subject and not cs & e_subject:
        return True
    # The subjects share words too ("X yields higher accuracy than Y"): the exchange shows in
    # more words changing sides than the subject keeps, generic nouns aside.
    es, eo, cs, co = (r - _GENERIC for r in (es, eo, cs, co))
    e_subject, e_object = es - eo, eo - es
    moved = (cs & e_object) | (co & e_subject)
    return bool(cs & e_object and co & e_subject) and len(moved) > len(cs & e_subject)


def both_for_either(c_toks: tuple[Tok, ...], e_toks: tuple[Tok, ...]) -> str | None:
    """ "both X and Y" where the evidence says "either X or Y" / "X or Y" about the same words
    (and "either X or Y" where it says "both X and Y")."""
    for cue, alts in (("both", {"or", "either"}), ("either", {"both"})):
        c_at = [i for i, t in enumerate(c_toks) if t.word == cue]
        if not c_at or any(t.word == cue for t in e_toks) or {t.word for t in c_toks} & (alts - {cue}):
            continue
        # "without hurting X or Y", "not X or Y": a negated "or" says neither, i.e. both kept.
        e_at = [
            i
            for i, t in enumerate(e_toks)
            if t.word in alts and not any(is_negation(e_toks[k]) for k in range(max(0, i - 6), i))
        ]
        c_near = set().union(*(window(c_toks, i, after=5, clause=False) for i in c_at))
        if any(c_near & window(e_toks, i, before=3, after=3, clause=False) for i in e_at):
            return "overclaim: both" if cue == "both" else "opposite predicate: both/either"
    return None
