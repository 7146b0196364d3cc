"""Names a question uses (acronyms, mixed case, digits) and whether a paper's text has them."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rag.text.normalize import STOPWORDS, content_stems, squash

# A named thing: mixed case or digits inside a word (GSM8K, ImageNet, LLaMA-3, GPT-4) or an acronym.
# Also a capitalised compound: "Mon-MDPs" (a word and an acronym), "Lomb–Scargle" (two proper names).
NAME = re.compile(
    r"\b(?:[A-Z][a-z]+[-–](?:[A-Z]{2,}|[A-Z][a-z]+)[\w.-]*|[A-Za-z]*[a-z][A-Z][\w.-]*|[A-Z][\w]*\d[\w.-]*"
    r"|[A-Z]{2,}[\w.-]*|[A-Za-z]+-\d[\w.-]*)"
)


# A capitalised word after a lowercase word, a number or a comma (not opening a sentence): a
# proper name ("Rényi", "Wasserstein", "Chinese") the paper must use too.
_PROPER = re.compile(r"(?<=[a-z0-9,)à-ÿ]\s)[A-Z][a-zà-ÿ]+(?:[-–][A-Za-zà-ÿ]+)*")


def _spelled_out(acronym: str, words: list[str]) -> bool:
    """ "LLM" in a text that says "large language models": the initials of consecutive words."""
    letters = acronym.lower().rstrip("s") if len(acronym) > 2 else acronym.lower()
    initials = "".join(w[0] for w in words if w)
    return len(letters) >= 2 and letters in initials


def unknown_names(question: str, text: str) -> list[str]:
    """Names in the question (acronyms, mixed case, digits: "CIFAR-10", "ImageNet", "SQL")
    that the paper's text never uses, spelled out or not. A paper that never names the
    dataset, model or tool a question is about does not answer it, however close its topic."""
    squashed = squash(text)
    words = re.findall(r"[a-z0-9]+", text.lower())
    out = []
    found = [m.group(0) for m in NAME.finditer(question)] + [m.group(0) for m in _PROPER.finditer(question)]
    for name in found:
        name = name.rstrip(".-'’")
        # "LLM-driven", "GPT-style": the name is the part before a lowercase suffix.
        name = re.sub(r"-[a-z][a-z-]*$", "", name)
        key = squash(name)
        if len(key) < 2 or key in squashed or (key.endswith("s") and key[:-1] in squashed):
            continue
        if re.fullmatch(r"[A-Z]{2,}s?", name) and _spelled_out(name, words):
            continue
        # "Kullback-Leibler" where the paper writes "KL": its initials as a word of the text.
        if (
            re.fullmatch(r"[A-Z][a-z]+[-–][A-Z][a-z]+", name)
            and "".join(w[0] for w in re.split("[-–]", name)).lower() in words
        ):
            continue
        # "T2I" for "text-to-image", "I2V" for "image to video": a digit for a homophone.
        if re.fullmatch(r"[A-Z]+[24][A-Z]+s?", name) and _spelled_out(name.replace("2", "T").replace("4", "F"), words):
            continue
        out.append(name)
    return list(dict.fromkeys(out))


_TEXT_ACRONYM = re.compile(r"\b[A-Z][A-Za-z]?[A-Z]{1,5}s?\b")
_WORDS = re.compile(r"[A-Za-z][a-z]*")
ACRONYM_RUN_MAX = 6


def _initials_runs(words: list[str], letters: str) -> Iterator[list[str]]:
    """Runs of consecutive `words` whose initials spell `letters` (stopwords counted, so
    "out of distribution" is "ood"), or spell it with the stopwords of the run skipped. Either
    way a run starts with a word of the first letter and has at least as many words as
    letters: only those are looked at (this ran for every candidate paper of every answer)."""
    initials = "".join(w[0] for w in words)
    n = len(letters)
    start = initials.find(letters[0])
    while start >= 0:
        for j in range(start + max(2, n), min(start + ACRONYM_RUN_MAX, len(words)) + 1):
            run = words[start:j]
            if initials[start:j] == letters or (
                n > 2 and run[0] not in STOPWORDS and "".join(w[0] for w in run if w not in STOPWORDS) == letters
            ):
                yield run
        start = initials.find(letters[0], start + 1)


def _letters(acronym: str) -> str:
    """ "GNNs" -> "gnn": a lowercase plural s is not a letter of the acronym."""
    return (acronym[:-1] if acronym.endswith("s") else acronym).lower()


def acronym_stems(question: str, text: str) -> frozenset[str]:
    """The question's words a text writes as an acronym ("graph neural networks" where the
    paper says "GNNs"), and the question's acronyms a text spells out ("LLM" where it says
    "large language model"), as stems: the same terms in another form, which a coverage
    count by stems would miss."""
    q_words = [w.lower() for w in _WORDS.findall(question)]
    t_words = [w.lower() for w in _WORDS.findall(text)]
    out: set[str] = set()
    for acr in {m.group(0) for m in _TEXT_ACRONYM.finditer(text)}:
        for run in _initials_runs(q_words, _letters(acr)):
            out.update(content_stems(" ".join(run)))
    for acr in {m.group(0) for m in _TEXT_ACRONYM.finditer(question)}:
        if next(_initials_runs(t_words, _letters(acr)), None) is not None:
            out.update(content_stems(acr))
    return frozenset(out)
