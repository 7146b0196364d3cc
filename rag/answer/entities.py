"""Asks for the things a paper used, by name ("which datasets did they evaluate on?", "which
base model did they fine-tune?"): only a sentence that names them answers."""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.answer.clauses import asks_own_noun
from rag.answer.names import NAME
from rag.answer.need import Need, all_of, any_of, matches, mentions, near
from rag.text.normalize import content_stems

# The paper's own contribution asked for by its kind: "what benchmark was built", "a new dataset".
_OWN_THING = re.compile(
    r"\b(?:built|introduc\w*|propos\w*|creat\w*|develop\w*|construct\w*|present\w*|release\w*|new|novel)\b", re.I
)

# "which datasets did they evaluate on", "names of the models used": named things are asked.
_ENTITY_ASK = re.compile(
    # the wh-word modifies the noun: "which papers use diffusion models" asks for papers, not names,
    # and "which traits of generative models" asks for traits ("which kind of models" does ask)
    r"\b(?:which|what|names?\s+of)\b(?!\s+(?!(?:kinds?|types?|sorts?|of)\b)[\w'-]+\s+of\b)(?:(?!\s(?:papers?|works?|studies|articles|abstracts|methods)\b)"
    r"(?!\s(?:use[sd]?|using|apply|applies|build|builds|train|trains|propose[sd]?|stud(?:y|ies))\b)[^?]){0,40}?"
    r"\b(datasets?|benchmarks?|models?|llms?|architectures?|checkpoints?|environments?"
    r"|baselines?(?:\s+(?:methods|models|approaches|algorithms))?|languages?|corpora|corpus"
    # the methods compared against: "which existing methods did they compare against"
    r"|(?:existing|prior|previous|competing)\s+(?:methods|approaches|algorithms)"
    # data the paper was run on: "which real transportation networks", "the benchmark problems"
    r"|(?:real(?:[- ]world)?\s+(?:[\w-]+\s+)?|benchmark\s+)(?:networks|graphs|functions|problems|instances))"
    # "which climate datasets or variables did …": an alternative noun; "models and tasks" asks
    # for more than names
    r"(?:\s+or\s+[\w-]+|\s+and\s+(?:[\w-]+\s+)?(?:datasets?|benchmarks?|models?|llms?|baselines?|corpora|networks|backbones?))?"
    # the head of its noun phrase ("which datasets did…", not "which benchmark tasks…")
    r"(?=\s+(?:(?:exactly|precisely|specifically)\s+)?(?:did|do|does|are|were|was|is|have|has|had|that|which|used|in|on|for|from|to|they|it"
    r"|made|make|makes|comprise\w*|constitut\w*|serv(?:e|es|ed)"
    r"|achiev\w*|outperform\w*|perform\w*|rank\w*|scor\w*|generat\w*|produc\w*)\b|\s*[?,])",
    re.I,
)
# "Which datasets?", "and what baselines?": in a conversation the noun alone asks what it used.
_BARE_ENTITY_ASK = re.compile(
    r"^\s*(?:and\s+|so\s+)?(?:which|what)\s+(?:other\s+)?(?:[\w-]+\s+)?(?:datasets?|benchmarks?|models?|llms?|architectures?"
    r"|environments?|baselines?|languages?|corpora)(?:\s+(?:was|is|were|are)\s+(?:that|it|this|those|these|used))?\s*[?.!]*\s*$",
    re.I,
)
_KIND_OF = re.compile(r"\b(?:kinds?|types?|sorts?)\s+of\b", re.I)
# "compared to best-of-N", "outperforms in-context learning", "better than fine-tuning".
_COMPARED = re.compile(
    r"\b(?:compared\s+(?:to|with|against)|relative\s+to|outperform\w*|surpass\w*|beat\w*|than|versus|vs\.?)"
    r"\s+(?:the\s+|a\s+|an\s+)?(?!(?:the|a|an|it|this|that|those|these|existing|previous|prior|other"
    r"|baselines?|competitors?|alternatives?|methods?|approaches|others)\b)[\w$-]{3,}",
    re.I,
)
_ENTITY_VERB = re.compile(
    r"\b(?:use[sd]?|using|evaluat\w*|test\w*|includ\w*|trained\s+on|train\s+on|compar\w*|transfer\w*"
    r"|report\w*|results?\s+on|experiment\w*|r[au]n\s+(?:[\w-]+\s+){0,3}?on|benchmarked|achiev\w*|outperform\w*|rank\w*|built|based"
    # "which language did they implement it in", "which base model did they start from",
    # "which model serves as the backbone"
    r"|implement\w*|start\w*\s+(?:from|with)|serv(?:e|es|ed|ing)\s+as|prompt\w*"
    # "which base model did they fine-tune", "which dataset did they apply it to"
    r"|(?:did|do|does|was|were|is|are|have|has|they|it)\s+(?:[\w-]+\s+){0,2}?(?:fine-?tun\w*|appl(?:y|ied|ies)|validat\w*|employ\w*|adopt\w*"
    r"|prob(?:e|ed|es|ing)|stud(?:y|ied|ies)|examin\w*|analy[sz]\w*|investigat\w*|quer(?:y|ied|ies))"
    r"|\b(?:models?|llms?)\s+(?:generat|produc)\w*)\b",
    re.I,
)
_EVALUATION_NOUNS = ("dataset", "benchmark", "corpus", "corpora")
# Where results are reported, a name after "on" is a dataset or benchmark.
_EVALUATED_ASK = re.compile(r"^(?:datasets?|benchmarks?|corpora|corpus)$", re.I)
_RESULTS_ON = re.compile(
    r"\b(?:performance|results?|accuracy|sota|state[- ]of[- ]the[- ]art|experiments?|evaluat\w*|gains?|improvements?"
    r"|outperform\w*|effectiveness|applications?)\b[^.;]{0,40}?\b(?:on|across|to)\s+(?:the\s+)?(?:\d[\w.]*\s+)?"
    r"(?-i:([A-Z][\w-]{3,}))",
    re.I,
)


def _results_on(exclude: set[str]) -> Callable[[str], bool]:
    """Results reported on a capitalised name the question and paper label do not write."""
    return lambda sentence: any(m.group(1).lower() not in exclude for m in _RESULTS_ON.finditer(sentence))


_NAME_MIN = 4  # "OoD", "SGD"-like short forms are too often generic
# "three SOTA models": an abbreviation of plain words, no name.
_NOT_NAMES = frozenset({"sota"})
# "Our RT-choice GPs enable …", "our model DPO-VP achieves …": the paper's own thing, not one
# it used.
_OURS = re.compile(
    r"\b[Oo]ur\s+(?:(?:proposed|new|final)\s+)?(?:(?:model|method|framework|approach|algorithm|system|agent"
    r"|architecture|pipeline|technique|estimator)s?,?\s+(?:called\s+|named\s+|dubbed\s+)?)?([A-Z][\w.-]*[A-Z][\w.-]*)"
)


_WORD = re.compile(r"[\w.-]+")
_THREE_CAPITALS = re.compile(r"[A-Z]{3}")


def _short_name(exclude: set[str]) -> Callable[[str], bool]:
    """A three-letter acronym ("UCI"): too often generic alone, a name beside "benchmark" or
    "dataset" ("benchmark UCI", "the UCI datasets")."""
    return lambda token: _THREE_CAPITALS.fullmatch(token.rstrip(".,")) is not None and token.lower() not in exclude


def _name_beside(noun: str, exclude: set[str]) -> Callable[[str], bool]:
    """A name right before the asked noun ("on the DocEdit dataset"): named as that thing even
    when the paper's own name contains it, which the question and label do not write."""
    stems = set(content_stems(noun.split()[-1]))

    def check(sentence: str) -> bool:
        tokens = _WORD.findall(sentence)
        return any(
            NAME.fullmatch(t) is not None
            and len(t) >= _NAME_MIN
            and t.lower() not in exclude
            and t.lower() not in _NOT_NAMES
            and stems & set(content_stems(tokens[i + 1]))
            for i, t in enumerate(tokens[:-1])
        )

    return check


def names_other_than(exclude: set[str]) -> Callable[[str], bool]:
    def check(sentence: str) -> bool:
        # "FooNet." ends a sentence; "RL-level", "LLM-based": the name is the part before a
        # lowercase suffix.
        names = (re.sub(r"-[a-z][a-z-]*$", "", m.group(0).rstrip(".-")) for m in NAME.finditer(sentence))
        return any(len(n) >= _NAME_MIN and n.lower() not in exclude and n.lower() not in _NOT_NAMES for n in names)

    return check


def recurring_acronyms(text: str) -> set[str]:
    """The names `text` writes at least twice, lowercased, an acronym's singular and plural as
    one ("LLM" and "LLMs": an abstract about LLMs is as likely to write one as the other)."""
    out: set[str] = set()
    for n in set(NAME.findall(text)):
        base = n[:-1] if n.endswith("s") and n[:-1].isupper() else n
        if len(re.findall(rf"(?<![\w-]){re.escape(base)}s?(?![\w-])", text)) >= 2 or text.count(n) >= 2:
            out |= {base.lower(), f"{base.lower()}s"}
    return out


# "23 points in ScienceWorld", "61.8% on LiveCodeBench": a name a score is reported on is a
# benchmark or environment the paper used, however often the abstract writes it.
_SCORED_ON = re.compile(
    r"\d[\d.,]*\s*(?:%|points?|pp|percent(?:age\s+points)?)?\s+(?:on|in|across)\s+(?:the\s+)?(?-i:([A-Z][\w-]{3,}))",
    re.I,
)


def scored_on(text: str) -> set[str]:
    """The names `text` reports a score on, lowercased, singular and plural."""
    names = {m.group(1).lower() for m in _SCORED_ON.finditer(text)}
    return names | {f"{n}s" for n in names}


def asks_entities(question: str) -> re.Match[str] | None:
    """The wh-phrase asking for named things ("which datasets"), its noun as group 1."""
    return _ENTITY_ASK.search(question)


def entity_need(question: str, m: re.Match[str], whole: str, label: str, text: str) -> Need | None:
    """A name of the asked thing where the question asks what the paper used (a verb of use,
    or the noun alone in a conversation); None when it asks something else of it."""
    if not (_ENTITY_VERB.search(question) or _BARE_ENTITY_ASK.match(question)):
        return None
    if asks_own_noun(question[m.start() : m.start(1)]):
        return None
    known = {w.lower() for w in re.findall(r"[\w.-]+", f"{whole} {label}")}
    beside = _name_beside(m.group(1), set(known))
    # The paper's own recurring acronyms ("CBMs") name its topic, not what it used.
    # Unless the question asks for the thing the paper itself built ("what benchmark was
    # introduced"): then the paper's own name is the answer.
    if not _OWN_THING.search(question):
        known |= (recurring_acronyms(text) - scored_on(text)) | {n.lower() for n in _OURS.findall(text)}
    verbs = [mentions(v.group(0)) for v in _ENTITY_VERB.finditer(question)]
    # Where results are reported, a benchmark is as often called a dataset, and the reverse.
    kin = [mentions(w) for w in _EVALUATION_NOUNS] if _EVALUATED_ASK.match(m.group(1)) else []
    about = any_of(mentions(m.group(1)), *verbs, *kin)
    named = any_of(all_of(about, names_other_than(known)), beside)
    if _EVALUATED_ASK.match(m.group(1)):  # "SOTA performance on Webshop and Crafter" names them
        named = any_of(named, _results_on(known), *(near(w, _short_name(known), _WORD) for w in _EVALUATION_NOUNS))
    # Baselines are often plain words ("best-of-N and self-repair"): a comparison names them.
    baselines = re.match(r"baseline|existing|prior|previous|competing", m.group(1), re.I) is not None
    met = any_of(named, matches(_COMPARED)) if baselines else named
    # "What kind of model does it build on?" is answered by a description as often as by a
    # name ("a pre-trained diffusion model"): the named sentence leads, none is required.
    kind = _KIND_OF.search(question[m.start() : m.start(1)]) is not None
    return Need(f"names of {m.group(1)}", met, required=not kind, specific=True)
