"""What one evidence sentence must contain for a question to be answered (`Need`), and the
small sentence tests needs are built from."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rag.text.normalize import content_stems


@dataclass(frozen=True)
class Need:
    """Something one evidence sentence must contain for the question to be answered."""

    name: str
    met_by: Callable[[str], bool]
    # A need that only orders the evidence (the sentence meeting it leads) and never refuses:
    # its test is a shape ("a list of three"), which a paraphrased answer may lack.
    required: bool = True
    # Met only by a sentence about the very thing asked ("a number of annotators", "a list of
    # three"): such a sentence may lead from further down than one that merely has a number.
    specific: bool = False
    # May lead from as far below the best as a second ask does, even when it is the first: its
    # test is narrow ("a distinguishability condition" for "what condition …"), yet such a
    # sentence shares few of the question's words (tuned on the dev sets, see `kinds`).
    loose: bool = False


def never(sentence: str) -> bool:
    return False


def matches(pattern: re.Pattern[str]) -> Callable[[str], bool]:
    return lambda sentence: pattern.search(sentence) is not None


def all_of(*checks: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda sentence: all(c(sentence) for c in checks)


def mentions(word: str) -> Callable[[str], bool]:
    stems = set(content_stems(word))
    return lambda sentence: bool(stems) and stems <= set(content_stems(sentence))


def any_of(*checks: Callable[[str], bool]) -> Callable[[str], bool]:
    return lambda sentence: any(c(sentence) for c in checks)


NEAR_WORDS = 4  # words between a thing and what is asked of it ("8 different tasks")
# Nouns whose acronyms end in their initial (LLM, VLM, GMM; CNN, GNN): "how many models" is met
# by "three MLLMs". Not "methods" or "metrics", which "LLMs" would meet by the same letter.
_ACRONYM_HEADS = {"models", "networks"}


# A word a PDF's line break split with a hyphen ("underly- ing", "employ- ing"): the second part
# is a suffix, so it is one word ("first- and second-order" is two).
_LINE_BREAK_HYPHEN = re.compile(
    r"(?<=[a-z])- (?=(?:ing|ings|ed|ly|ity|ities|tion|tions|sion|sions|ment|ments|ness|able|ible|ive|ous|al|ize|ise)\b)"
)


def rejoined(sentence: str) -> str:
    """The sentence with words a line break split rejoined ("underly- ing" -> "underlying")."""
    return _LINE_BREAK_HYPHEN.sub("", sentence)


def near(noun: str, test: Callable[[str], bool], token: re.Pattern[str], initials: str = "") -> Callable[[str], bool]:
    """A token passing `test` within `NEAR_WORDS` words of `noun` ("6,658 questions", "two
    algorithms, PDI-CP and JDI-CP"); `token` says what a word is. `initials`: those of the
    question's words for the thing (two or more: "language models" is "LM"; one for a noun
    that heads acronyms, `_ACRONYM_HEADS`); a plural acronym ending in them names it too ("six
    LLMs", "three MLLMs")."""
    stems = set(content_stems(noun))
    usable = len(initials) >= 2 or (len(initials) == 1 and noun.lower() in _ACRONYM_HEADS)

    def named(t: str) -> bool:
        if stems & set(content_stems(t)):
            return True
        t = t.rstrip(".,")
        return usable and re.fullmatch(r"[A-Z]{2,}s", t) is not None and t[:-1].endswith(initials)

    def check(sentence: str) -> bool:
        tokens = token.findall(rejoined(sentence))
        at_noun = [i for i, t in enumerate(tokens) if named(t)]
        at_test = [i for i, t in enumerate(tokens) if test(t)]
        return any(abs(i - j) <= NEAR_WORDS for i in at_noun for j in at_test)

    return check
