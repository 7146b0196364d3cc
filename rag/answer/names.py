"""Names a question uses (acronyms, mixed case, digits) and whether a paper's text has them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from itertools import accumulate

from rag.answer.lexicon import parts_of_speech
from rag.answer.overview import KIND, MANNER
from rag.text.normalize import capitals_written, content_stems, fold, squash

# A named thing: mixed case or digits inside a word (GSM8K, ImageNet, LLaMA-3, GPT-4) or an acronym.
# Also a capitalised compound: "Mon-MDPs" (a word and an acronym), "Lomb–Scargle" (two proper names).
NAME = re.compile(
    r"\b(?:[A-Z][a-z]+[-–](?:[A-Z]{2,}|[A-Z][a-z]+)[\w.-]*|[A-Za-z]*[a-z][A-Z][\w.-]*|[A-Z][\w]*\d[\w.-]*"
    r"|[A-Z]{2,}[\w.-]*|[A-Za-z]+-\d[\w.-]*)"
)


# A capitalised word after a lowercase word, a number or a comma (not opening a sentence): a
# proper name ("Rényi", "Wasserstein", "Chinese") the paper must use too.
# A whole word: "Image" of "ImageNet" is no name of its own.
_PROPER = re.compile(r"(?<=[a-z0-9,)à-ÿ]\s)[A-Z][a-zà-ÿ]+(?:[-–][A-Za-zà-ÿ]+)*(?![\w-])")


# A name this few abstracts write identifies the paper a "what is <name>?" question means.
NAME_MAX_PAPERS = 2
_WHAT_NAME = re.compile(
    rf"^\s*(?:{MANNER}\s*,\s*)?"  # "In a sentence, what is PEPR?"
    r"(?:(?:what(?:'s|\s+is|\s+are)|define|explain|describe)\s+(?:the\s+|an?\s+)?(?P<name>[^?]+?)"
    # "What does IME stand for?", "What is KKT short for?": what a name is, by its long form.
    r"|what\s+(?:does|do)\s+(?:the\s+)?(?:acronym\s+|abbreviation\s+)?(?P<abbr>[^?]+?)\s+stand\s+for"
    r"|what\s+is\s+(?P<short>[^?]+?)\s+short\s+for)"
    rf"(?:\s*,?\s*{MANNER})*\s*\??\s*$",
    re.I,
)
NAME_MAX_WORDS = 6


def _asked(question: str) -> str | None:
    m = _WHAT_NAME.match(question)
    name = m and (m.group("name") or m.group("abbr") or m.group("short"))
    return name if name and len(name.split()) <= NAME_MAX_WORDS else None


def asks_what_name_is(question: str) -> bool:
    """ "What is the One-Step Generalization Ratio?", "define TimeFlow Loss": the question is a
    name (a few words) and asks what it is."""
    return _asked(question) is not None


def asked_name(question: str, df: Mapping[str, int]) -> str | None:
    """The name a "what is <name>?" question asks about, when it is one written name ("WQRM",
    "GSM8K", "LoRA": see `NAME`), or one lowercase word at most `NAME_MAX_PAPERS` abstracts
    use ("what is wqrm?": an acronym typed in lowercase), else None."""
    name = _asked(question)
    name = name and re.sub(rf"\s+{KIND}s?$", "", name, flags=re.I)  # "the WQ benchmark"
    if name and re.fullmatch(r"[a-z][a-z0-9]{1,7}", name):
        return name if all(0 < df.get(s, 0) <= NAME_MAX_PAPERS for s in content_stems(name) or ["-"]) else None
    return name if name and NAME.fullmatch(name) else None


@lru_cache(maxsize=256)
def defining_pattern(name: str) -> re.Pattern[str]:
    """What defines `name` in a sentence: "X, a …", "… (X)", "X is a …", "we propose … X"; a
    name typed in lowercase only by the brackets of its long form ("… Models (WQRM)")."""
    n = re.escape(name)
    if name.islower():
        return re.compile(rf"\({n}\)", re.I)
    return re.compile(
        rf"(?<![\w-]){n}\s*,\s*(?:a|an|the)\b|\({n}\)|(?<![\w-]){n}\s+(?:is|are)\s+(?:a|an)\b"
        rf"|\b(?:propos|introduc|present|develop)\w*\s+(?:[\w-]+\s+){{0,2}}{n}(?![\w-])"
    )


def defines_asked_name(
    question: str, text: str, df: Mapping[str, int], capitals: Mapping[str, int] | None = None
) -> bool:
    """ "What is WQRM?": `text` defines the name asked about ("Writing Quality Reward Models
    (WQRM)"), a name at most `NAME_MAX_PAPERS` abstracts use. Such a name is the paper's own
    as much as its label is, however far its letters are from anything the embedding knows.
    An all-caps name is counted as written in capitals (`capitals`: "ARM" against the many
    abstracts on bandit "arms")."""
    name = asked_name(question, df)
    if name is None:
        return False
    if capitals is not None and _CAPS.fullmatch(name):
        rare = 0 < capitals.get(name, 0) <= NAME_MAX_PAPERS
    else:
        stems = content_stems(name)
        # "Safe-PSRL": the hyphenated whole is the name, however common "safe" is.
        stems = [s for s in stems if "-" in s] or stems
        rare = bool(stems) and all(df.get(s, 0) <= NAME_MAX_PAPERS for s in stems)
    return rare and bool(defining_pattern(name).search(text))


def rare_name_stems(question: str, df: Mapping[str, int]) -> list[str]:
    """The words of the name a "what is <name>?" question asks about (as stems) that only a
    few abstracts use (`NAME_MAX_PAPERS`): "What is disintegrated PAC-Bayes?" is about a paper
    that writes "disintegrated", however close another PAC-Bayes paper is. A word no abstract
    uses (a slip, or a name nobody indexed) singles out no paper."""
    name = _asked(question)
    if name is None:
        return []
    return [s for s in dict.fromkeys(content_stems(name)) if 0 < df.get(s, 0) <= NAME_MAX_PAPERS]


def _spelled_out(acronym: str, words: list[str]) -> bool:
    """ "LLM" in a text that says "large language models": the initials of consecutive words,
    a closed compound giving its parts' ("VAE": "variational autoencoder")."""
    letters = acronym.lower().rstrip("s") if len(acronym) > 2 else acronym.lower()
    initials = "".join(w[0] for w in words if w)
    if len(letters) < 2:
        return False
    if letters in initials:
        return True
    return len(letters) >= 3 and any(
        _compound_initials(words, i, letters) for i, w in enumerate(words) if w and w[0] == letters[0]
    )


COMPOUND_PART_MIN = 4  # "auto|encoder": each part a word of this many letters or more


def _compound_initials(words: list[str], start: int, letters: str) -> bool:
    """Whether the words from `start` spell `letters` by their initials, a word that is two
    words joined ("autoencoder") giving both its parts' initials."""
    i = 0
    for w in words[start : start + len(letters)]:
        if not w or w[0] != letters[i]:
            return False
        i += 1
        if i < len(letters) and _second_part(w, letters[i]):
            i += 1
        if i == len(letters):
            return True
    return False


def _second_part(word: str, letter: str) -> bool:
    return any(
        word[k] == letter and parts_of_speech(word[:k]) and _word_like(word[k:])
        for k in range(COMPOUND_PART_MIN, len(word) - COMPOUND_PART_MIN + 1)
    )


def _word_like(part: str) -> bool:
    """A word, or an agent noun of a verb WordNet lists without it ("encoder": "encode")."""
    if parts_of_speech(part):
        return True
    part = part[:-1] if part.endswith(("ers", "ors")) else part
    return part.endswith(("er", "or")) and any("verb" in parts_of_speech(part[:-k]) for k in (1, 2))


_CAPS = re.compile(r"[A-Z]{3,}")


def only_as_word(name: str, text: str) -> bool:
    """An all-caps name the text writes only as an ordinary word: "DRIFT" in an abstract on
    "drifting data" (or a title's "Drifting") that never writes "DRIFT". The capitals make it
    a name (a paper's coined acronym); the word is not that name. "LoRA" is the name "LORA"."""
    if not _CAPS.fullmatch(name):
        return False
    seen = [m.group(0) for m in re.finditer(re.escape(name), text, re.I)]
    return bool(seen) and all(w.islower() or (w[0].isupper() and w[1:].islower()) for w in seen)


def writes_in_capitals(name: str, text: str) -> bool:
    """The text writes an all-caps name as a word in capitals ("ARM", "ARMs"), not only inside
    other words ("linear models" squashed holds "arm") or as an ordinary word (`only_as_word`).
    A name not all in capitals: True."""
    return not _CAPS.fullmatch(name) or name in capitals_written(text)


@lru_cache(maxsize=2048)  # a paper's text is judged for question after question
def _pieces(text: str) -> tuple[str, bytes]:
    """The text squashed (`squash`), with a flag at each offset where one of its words, or a
    run of letters or of digits within one, starts or ends: "GPT-4", "GPT4" and "gpt 4" all
    hold "gpt4" from one such offset to another; "linear models" holds "arm" only inside words."""
    runs = _RUNS.findall(fold(text).lower())
    squashed = "".join(runs)
    bounds = bytearray(len(squashed) + 1)
    for offset in accumulate((len(r) for r in runs), initial=0):
        bounds[offset] = 1
    return squashed, bytes(bounds)


_RUNS = re.compile(r"[a-z]+|[0-9]+")


def _writes(key: str, pieces: tuple[str, bytes]) -> bool:
    """The squashed name `key` is written as whole words (a plural "s" or "es" after it too)."""
    squashed, bounds = pieces
    start = squashed.find(key)
    while start >= 0:
        end = start + len(key)
        if bounds[start] and any(
            end + len(s) < len(bounds) and bounds[end + len(s)] and squashed.startswith(s, end) for s in ("", "s", "es")
        ):
            return True
        start = squashed.find(key, start + 1)
    return False


def _written(key: str, pieces: tuple[str, bytes]) -> bool:
    return _writes(key, pieces) or (key.endswith("s") and _writes(key[:-1], pieces))


def written(name: str, text: str) -> bool:
    """The text writes the name as whole words, in any case and spacing ("GPT-4", "gpt4")."""
    return _written(squash(name), _pieces(text))


def unknown_names(question: str, text: str) -> list[str]:
    """Names in the question (acronyms, mixed case, digits: "CIFAR-10", "ImageNet", "SQL")
    that the paper's text never uses as words, spelled out or not (asked what it is, a name in
    capitals that the text writes only as a word: `only_as_word`). A paper that never names the
    dataset, model or tool a question is about does not answer it, however close its topic; a
    name found only inside other words ("ARM" in "linear models") is not written."""
    pieces = _pieces(text)
    words = re.findall(r"[a-z0-9]+", text.lower())
    # Only a question asking what the name is holds its capitals to the paper: elsewhere an
    # all-caps name is often another indexed paper's label ("Setting FAST aside, what does the
    # other one …?"), which the paper answering need not write in capitals.
    what_name = asks_what_name_is(question)
    out = []
    found = [m.group(0) for m in NAME.finditer(question)] + [m.group(0) for m in _PROPER.finditer(question)]
    for name in found:
        name = name.rstrip(".-'’")
        # "LLM-driven", "GPT-style": the name is the part before a lowercase suffix.
        name = re.sub(r"-[a-z][a-z-]*$", "", name)
        key = squash(name)
        if len(key) < 2:
            continue
        if _written(key, pieces) and not (what_name and only_as_word(name, text)):
            continue
        # "CPU-GPU offloading" of a text that says "between the CPU and GPU": names joined into
        # one are written when each is.
        parts = re.split(r"[-/–]", name)
        if len(parts) > 1 and all(re.match(r"[A-Z]", p) and _written(squash(p), pieces) for p in parts):
            continue
        # "LLM", and "MoE" where the text says "mixture of experts": the initials of its words.
        if re.fullmatch(r"[A-Z]{2,}s?|(?:[A-Z][a-z]?)+[A-Z]s?", name) and _spelled_out(name, words):
            continue
        # "Kullback-Leibler" where the paper writes "KL": its initials as a word of the text.
        if (
            re.fullmatch(r"[A-Z][a-z]+[-–][A-Z][a-z]+", name)
            and "".join(w[0] for w in re.split("[-–]", name)).lower() in words
        ):
            continue
        # "Lagrangian" where the text says "Lagrange", "Markovian" for "Markov": a name's
        # adjective in -ian/-ean names what the name does.
        if re.fullmatch(r"[A-Z][a-z]{3,}[ie]an", name) and re.search(
            rf"\b{re.escape(name[:-3].lower())}", text.lower()
        ):
            continue
        # "T2I" for "text-to-image", "I2V" for "image to video": a digit for a homophone.
        if re.fullmatch(r"[A-Z]+[24][A-Z]+s?", name) and _spelled_out(name.replace("2", "T").replace("4", "F"), words):
            continue
        out.append(name)
    return list(dict.fromkeys(out))
