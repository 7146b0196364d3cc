"""The overclaim rules: a quantifier or superlative the evidence does not state about the
same thing, a hedge of the evidence the claim drops, or a run of added content. Pure
functions over `judge_text.tokens`."""

from __future__ import annotations

import re
from collections import Counter

from rag.answer import lexicon
from rag.answer.judge_roles import both_for_either
from rag.answer.judge_rules import hyphen_parts, stem_of
from rag.answer.judge_text import Tok, is_negation, stems, tokens, window
from rag.answer.judge_values import APPROXIMATELY, list_sizes, values

# Quantifiers and superlatives a claim may only use when the evidence says as much about
# the same thing; a word licenses a cue of its own class.
_CLAIM_CUES: dict[str, str] = {
    **dict.fromkeys("all every any whole entire universally regardless arbitrary arbitrarily".split(), "universal"),
    "each": "each",  # "each of the two" restates "both"
    **dict.fromkeys("always invariably consistently inevitably never".split(), "always"),
    **dict.fromkeys(
        "completely fully totally perfectly entirely wholly impossible guaranteed guarantee guarantees".split(), "total"
    ),
    **dict.fromkeys(
        "best state-of-the-art sota unmatched unprecedented sole solely dominant ever".split(),
        "top",
    ),
    # optimality is a property proved of a method, not a rank among methods ("improves on the
    # state of the art" does not say "optimal")
    **dict.fromkeys("optimal optimally tight tightest".split(), "optimal"),
    **dict.fromkeys("exactly precisely".split(), "exact"),
}
_LICENSERS: dict[str, set[str]] = {
    "universal": set("all every each any whole entire universally regardless always arbitrary arbitrarily".split()),
    "each": set("all every each any whole entire universally regardless always arbitrary arbitrarily both individual "
                "individually".split()),
    "most": set("all every each any whole entire universally always most majority nearly almost virtually "
                "practically largely mostly predominantly overwhelming vast near".split()),
    "always": set("always invariably consistently consistent systematically inevitably never every all".split()),
    "total": set("completely fully full totally perfectly entirely wholly impossible guarantees guarantee eliminates "
                 "eliminate eliminating guaranteed ensure ensures ensured ensuring provably provable always".split()),
    "top": set("best optimal optimally optimize optimizes optimizing state-of-the-art sota top leading unmatched "
               "unprecedented tight tightest first only sole solely dominant dominates ever".split()),
    "optimal": set("optimal optimally optimality tight tightest minimax-optimal".split()),
    "exact": set("exact exactly precise precisely identical identically equal equals same".split()),
}  # fmt: skip
_DEFINITE_CUES = {"only": "top", "most": "top", "first": "top"}  # cues only after "the": "the only …"
_HEDGES = frozenset(
    "may might could often tend tends sometimes occasionally appear appears seem seems suggest suggests partially hope "
    "approximately roughly likely potentially believe believes hypothesize hypothesise conjecture speculate "
    "conjectured conjectures hypothesized hypothesised hypothesizes hypothesises speculated speculates".split()
)
_HEDGE_LICENSERS = _HEDGES | set(
    "can some usually typically generally largely mostly frequently commonly possibly perhaps probably partly inclined "
    "prone apt".split()
)
_HEDGE_LICENSER_STEMS = frozenset(stem_of(w) for w in _HEDGE_LICENSERS)
_HEDGE_STEMS = frozenset(stem_of(w) for w in _HEDGES)
_SOFTENERS = frozenset("almost nearly virtually practically largely".split())  # "almost all": no universal
_SOFT_PREFIXES = frozenset("near almost nearly quasi".split())  # "near-optimal" is not "optimal"


def _cues(toks: tuple[Tok, ...]) -> list[tuple[str, str, set[str]]]:
    out = []
    for i, t in enumerate(toks):
        cls = _CLAIM_CUES.get(t.word)
        quantifier = t.word == "any" or (cls in ("universal", "always", "total") and t.word != "never")
        if quantifier and _negated_clause(toks, i, strict=t.word != "any"):
            continue  # "without any", "not … in every case", "cannot fully": no quantifier claim
        if t.word == "all" and i and toks[i - 1].word == "at":
            continue  # "why they succeed at all": an intensifier, no quantifier
        if cls is None and "-" in t.word and _CLAIM_CUES.get(t.word.split("-")[0]) == "top":
            cls = "top"  # "best-performing" claims the best
        if _softened(toks, i):
            # "almost all", "virtually every": a majority claim, which "many" does not make
            if cls in ("universal", "each", "always"):
                out.append((t.word, "most", window(toks, i, after=2, clause=False)))
            continue
        if cls is None and t.word in _DEFINITE_CUES and i and toks[i - 1].word == "the":
            cls = _DEFINITE_CUES[t.word]
        elif cls is None and t.word == "most" and _before_plural(toks, i):
            cls = "most"  # "in most settings": a majority claim ("at most", "the most X" are not)
        if cls:
            out.append((t.word, cls, window(toks, i, after=2, clause=False)))
    return out


def _before_plural(toks: tuple[Tok, ...], i: int) -> bool:
    """Token i stands before a plural noun and after no "at"/"the" ("most settings")."""
    after = toks[i + 1] if i + 1 < len(toks) else None
    before = toks[i - 1].word if i else ""
    return after is not None and after.content and after.word.endswith("s") and before not in {"at", "the"}


# Negations that turn a quantifier into a weaker claim ("not … in every case", "not always");
# an implicit negative ("down to zero in every setting") does not.
_NEGATORS = frozenset("not no never without cannot neither nor can't don't doesn't didn't isn't aren't won't".split())


def _negated_clause(toks: tuple[Tok, ...], i: int, *, strict: bool = False) -> bool:
    """A negation earlier in token i's clause: "any" there is no quantifier ("has not been
    addressed by any prior work" = "no prior work has addressed")."""
    for k in range(i - 1, max(-1, i - 8), -1):
        if toks[k].boundary:
            return False
        if toks[k].word in _NEGATORS if strict else is_negation(toks[k]):
            return True
    return False


def _approximate_number(toks: tuple[Tok, ...]) -> bool:
    """ "about 65%", "around twenty", "about half": the claim keeps the evidence's "approximately"."""
    return any(t.word in APPROXIMATELY and values(toks[i + 1].word) for i, t in enumerate(toks[:-1]))


def _negates(scope: set[str], e_toks: tuple[Tok, ...]) -> bool:
    """The evidence negates what "never" is about ("is not triggered" for "never gets triggered")."""
    return any(is_negation(t) and scope & window(e_toks, i, after=3) for i, t in enumerate(e_toks))


def _softened(toks: tuple[Tok, ...], i: int) -> bool:
    """Token i follows a softener, across an article ("nearly the optimal", "almost all",
    "close to optimal")."""
    k = i - 1 if i and toks[i - 1].word not in {"the", "a", "an"} else i - 2
    if k >= 0 and toks[k].word in _SOFTENERS:
        return True
    return k >= 1 and toks[k].word == "to" and toks[k - 1].word == "close"


def _stated(word: str, scope: set[str], e_toks: tuple[Tok, ...]) -> bool:
    """The evidence uses the cue itself in any form ("optimality" for "optimal", "anytime" for
    "at any time"), not only softened ("almost all", "near-optimal" do not license "all",
    "optimal")."""
    stem = stem_of(word)
    for i, t in enumerate(e_toks):
        if _softened(e_toks, i) or t.word.split("-")[0] in _SOFT_PREFIXES:
            continue
        if word in (t.word, *t.word.split("-")) or t.stem == stem:
            return True
        if "-" in word and t.word.replace("-", "") == word.replace("-", ""):
            return True  # a hyphen lost in the abstract's text ("state-of-theart")
        if t.word.startswith(word) and stem_of(t.word[len(word) :]) in scope:
            return True
    return False


_COUNT = re.compile(r"\d+|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve")


def _all_of_count(toks: tuple[Tok, ...], word: str, evidence: str) -> bool:
    """ "all five datasets" where the evidence gives that count or lists that many: the
    quantifier restates the count."""
    at = [i for i, t in enumerate(toks) if t.word == word]
    have = set(values(evidence)) | list_sizes(evidence)
    return any(
        i + 1 < len(toks) and _COUNT.fullmatch(toks[i + 1].word) and set(values(toks[i + 1].word)) & have for i in at
    )


_NOT_POSSIBLE = re.compile(r"\b(?:not|never)\s+(?:\w+\s+)?possible\b", re.I)  # restated by "impossible"


def _before_number(toks: tuple[Tok, ...], word: str) -> bool:
    return any(
        t.word == word and i + 1 < len(toks) and (toks[i + 1].word == "zero" or values(toks[i + 1].word))
        for i, t in enumerate(toks)
    )


# "all while", "all along", "all too", "all the more": "all" as an adverb quantifies nothing.
_ADVERB_ALL = frozenset("while along too".split())
# "100% success" says "every time"; "100% of the cases" says "all".
_HUNDRED = re.compile(r"(?<![\d.])100(?:\.0+)?\s?(?:\\)?%")


def _quantifies(toks: tuple[Tok, ...], i: int) -> bool:
    if toks[i].word != "all" or i + 1 >= len(toks):
        return True
    after = [t.word for t in toks[i + 1 : i + 3]]
    return not (after[0] in _ADVERB_ALL or after in (["the", "more"], ["the", "less"]))


def _restated(word: str, cls: str, c_toks: tuple[Tok, ...], evidence: str) -> bool:
    """A cue that restates something else the evidence says: a count ("all five datasets"), a
    number ("exactly zero", which the number rule checks), "not possible" ("impossible")."""
    if cls == "universal" and _all_of_count(c_toks, word, evidence):
        return True
    if cls == "exact" and _before_number(c_toks, word):
        return True
    return word == "impossible" and _NOT_POSSIBLE.search(evidence) is not None


def _licensed(word: str, cls: str, scope: set[str], e_toks: tuple[Tok, ...], evidence: str) -> bool:
    """The evidence states the cue itself, or a word of its class about the same thing."""
    if _stated(word, scope, e_toks):
        return True
    if cls in ("universal", "always", "total") and _HUNDRED.search(evidence):
        return True
    return any(
        # "near-universal" licenses "almost all"; "best-known" does not license "best"
        any(p in _LICENSERS[cls] for p in (t.word, *(t.word.split("-") if cls == "most" else ())))
        and (scope & window(e_toks, i, before=2, after=3, clause=False) or not scope)
        and not (t.word == "leading" and i + 1 < len(e_toks) and e_toks[i + 1].word == "to")
        and not (cls != "most" and _softened(e_toks, i))
        and _quantifies(e_toks, i)
        for i, t in enumerate(e_toks)
    )


def overclaim(claim: str, evidence: str) -> str | None:
    """A quantifier or superlative the evidence does not state about the same thing, or a
    hedge of the evidence ("tend to", "often", "in some cases") dropped by the claim."""
    e_toks = tokens(evidence)
    c_toks = tokens(claim)
    for word, cls, scope in _cues(c_toks):
        if _restated(word, cls, c_toks, evidence) or _licensed(word, cls, scope, e_toks, evidence):
            continue
        if not (word == "never" and _negates(scope, e_toks)):
            return f"overclaim: {word}"
    both = both_for_either(c_toks, e_toks)
    if both:
        return both
    c_stems = stems(claim)
    if not _hedged(c_toks, e_toks) and not _approximate_number(c_toks):
        for i, t in enumerate(e_toks):
            if t.word in {"appear", "appears"} and (i + 1 == len(e_toks) or e_toks[i + 1].word != "to"):
                continue  # "appears in unexpected contexts": occurs, no hedge ("appears to")
            if t.word in _HEDGES and len(window(e_toks, i, after=3) & c_stems) >= 2:
                return f"overclaim: drops '{t.word}'"
    return None


def _hedged(c_toks: tuple[Tok, ...], e_toks: tuple[Tok, ...]) -> bool:
    """The claim hedges, by stem ("is conjectured to" keeps the evidence's "we conjecture"):
    with a hedge, or with a weaker word ("can", "some") more often than the evidence writes it
    (a "can" both write is no hedge kept)."""
    have = Counter(t.stem for t in e_toks if t.stem in _HEDGE_LICENSER_STEMS)
    said = Counter(t.stem for t in c_toks if t.stem in _HEDGE_LICENSER_STEMS)
    return any(s in _HEDGE_STEMS or n > have[s] for s, n in said.items())


_AUTHORS = frozenset("authors author".split())  # a claim's "the authors" is the evidence's "we"
NOVEL_RUN_MAX = 3  # content words in a row that the evidence lacks (calibrated: faithful claims <= 3)


def novel_content(claim: str, evidence: str, limit: int = NOVEL_RUN_MAX) -> str | None:
    """A run of more than `limit` content words that the evidence does not have: added content."""
    have = {st[:5] for st in stems(evidence)}
    run: list[str] = []
    for t in tokens(claim):
        if t.boundary and t.word != "and":
            run = []
        elif t.content and t.stem[:5] not in have and not hyphen_parts(t.word) & have:
            if _plain(t.word) or t.word in _AUTHORS:
                continue  # "instead", "rapidly", "briefer": a paraphrase's wording, not new content
            run.append(t.word)
            if len(run) > limit:
                return f"overclaim: adds '{' '.join(run)}'"
        elif t.content:
            run = []
    return None


def _plain(word: str) -> bool:
    """A common English word that cannot name a thing: an adverb, verb or adjective."""
    pos = lexicon.parts_of_speech(word)
    return lexicon.is_common(word) and bool(pos) and "noun" not in pos and not lexicon.superlative(word)
