"""Where a text names indexed papers: by label (the name a paper coins), by the head of its
title ("Large Language Monkeys: …"), by a run of title words few other titles share, or by a
title word that is rare in the whole corpus ("upcycling")."""

from __future__ import annotations

import re

from rag.index.vocabulary import Vocabulary, phrases
from rag.text.english import is_common
from rag.text.normalize import bare_title, content_stems, fold, normalize_markdown
from rag.types import Paper

TITLE_RUN = 3  # words in a run of title words that names a paper
TITLE_RUN_MAX_PAPERS = 2  # a run shared by more titles names none of them
RARE_WORD_MIN_LEN = 6
RARE_WORD_MAX_ABSTRACTS = 3  # a title word this rare in the abstracts names its paper ("upcycling")


def naming_labels(papers: dict[str, Paper]) -> set[str]:
    """Papers whose label, written in a text, names them. A one-word label that many abstracts
    write the same way ("LMs", "PAC", "MLE": the label rules fell back to a common acronym)
    names none of them once thousands of papers are indexed, unless the paper's title coins it
    ("TOFU: A Task of …"). Counted as written: "FAST" is a name even where "fast" is common."""
    one_word = {p.label for p in papers.values() if len(p.label) >= 3 and " " not in p.label}
    df: dict[str, int] = {}
    for p in papers.values():
        for token in one_word.intersection(re.findall(r"[^\s,;:()\[\]]+", f"{p.title or ''} {p.abstract}")):
            df[token] = df.get(token, 0) + 1
    out = set()
    for pid, p in papers.items():
        coined = (p.title or "").split(":", 1)[0].strip() == p.label
        if len(p.label) >= 3 and (" " in p.label or coined or df.get(p.label, 0) <= RARE_WORD_MAX_ABSTRACTS):
            out.add(pid)
    return out


# "… we introduce the Lightweight Sample-wise Multimodal Interaction (LSMI) estimator".
EXPANSION_MAX_WORDS = 8
_CONNECTIVES = frozenset({"of", "for", "and", "in", "on", "to", "the", "with", "via", "from", "by", "a", "an"})


def _initials(words: list[str], *, split: bool) -> str:
    parts = [q for w in words for q in (w.split("-") if split else [w]) if q]
    return "".join(q[0] for q in parts if q.lower() not in _CONNECTIVES).lower()


def _coined(run: list[str]) -> bool:
    """Capitalised as a name ("Lightweight Sample-wise Multimodal Interaction"): a lowercase
    long form ("constraint satisfaction problems (CSPs)") is a term of the field, which a
    conversation uses without meaning that paper."""
    return run[0].lower() not in _CONNECTIVES and all(w[0].isupper() for w in run if w.lower() not in _CONNECTIVES)


def expansions(paper: Paper, vocab: Vocabulary) -> set[str]:
    """What the abstract writes the paper's label for, where it defines it ("Lightweight
    Sample-wise Multimodal Interaction (LSMI)"): the capitalised words just before the label in
    parentheses whose initials spell it (a hyphenated word by its first letter or by each
    part's). A text that writes that long form names the paper as surely as one that writes the
    label, unless more indexed abstracts use it: "Multiple Instance Learning (MIL)" is a field."""
    out: set[str] = set()
    letters = paper.label.removesuffix("s").lower()  # "EVIs": a lowercase plural s is no initial
    text, key = paper.abstract, f"({paper.label})"
    at = text.find(key)
    while at > 0:
        before = [w for w in (w.strip("*_") for w in text[:at].split()[-EXPANSION_MAX_WORDS:]) if w]
        before = before[max((i + 1 for i, w in enumerate(before) if re.search(r"[()]", w)), default=0) :]
        for i in range(len(before) - 1):
            run = before[i:]
            if _coined(run) and letters in (
                _initials(run, split=False),
                _initials(run, split=True),
            ):
                pairs = phrases(" ".join(run))
                if pairs and min(vocab.df.get(p, 0) for p in pairs) <= RARE_WORD_MAX_ABSTRACTS:
                    out.add(_phrase(" ".join(run)))
                break
        at = text.find(key, at + 1)
    return out


def _plain(text: str) -> list[str]:
    """Lowercased words, hyphenated ones split, as a reader sees them: a title's
    "$f$-differential" and a text's "f-differential" are the same two words."""
    return re.findall(r"[^\W_]+", normalize_markdown(fold(text)).lower())


def _phrase(text: str) -> str:
    return " ".join(_plain(text))


def _tokens(text: str) -> list[str]:
    """Lowercased words, hyphenated ones whole ("feed-forward" is one word of a run)."""
    return re.findall(r"[a-z0-9]+(?:-[a-z0-9]+)*", fold(text).lower())


def _outermost(spans: dict[str, tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """The mentions no longer mention contains: a whole title ("Putting the Value Back in RL:
    … LLM Reasoners with Verifiers") names its paper, not the paper whose title opens with
    two of its words ("LLM Reasoners: …")."""
    return {
        p: (at, n)
        for p, (at, n) in spans.items()
        if not any(m > n and a <= at and at + n <= a + m for a, m in spans.values())
    }


def _distinctive(word: str) -> bool:
    """A title word that can help name its paper: not a function word, nor a word of the field's
    own boilerplate ("method based on" is in two titles, yet a writer's phrase, not a name)."""
    return bool(content_stems(word))


class Mentions:
    """Built once per snapshot; `find` costs one pass over the text's word runs."""

    def __init__(self, papers: dict[str, Paper], vocab: Vocabulary, naming: set[str]) -> None:
        self.labels: dict[str, set[str]] = {}  # label as written -> papers (case-sensitive)
        self.heads: dict[str, set[str]] = {}  # lowercased word phrase -> papers
        self.runs: dict[tuple[str, ...], set[str]] = {}
        for pid, p in papers.items():
            if pid in naming:
                self.labels.setdefault(fold(p.label), set()).add(pid)
                for phrase in expansions(p, vocab):
                    self.heads.setdefault(phrase, set()).add(pid)
            title = bare_title(p.title)
            if not title:
                continue
            head = title.split(":", 1)[0] if ":" in title else ""
            for phrase in {_phrase(title), _phrase(head)} - {""}:
                self.heads.setdefault(phrase, set()).add(pid)
            ws = _tokens(title)
            for i in range(len(ws) - TITLE_RUN + 1):
                run = tuple(ws[i : i + TITLE_RUN])
                if sum(_distinctive(w) for w in run) >= 2:
                    self.runs.setdefault(run, set()).add(pid)
        self.runs = {k: v for k, v in self.runs.items() if len(v) <= TITLE_RUN_MAX_PAPERS}
        title_df: dict[str, set[str]] = {}
        for pid, p in papers.items():
            for w in set(_tokens(bare_title(p.title))):
                if len(w) >= RARE_WORD_MIN_LEN and w.isalpha():
                    title_df.setdefault(w, set()).add(pid)
        self.rare = {
            w: next(iter(pids))
            for w, pids in title_df.items()
            if len(pids) == 1
            and not is_common(w)  # "really", "anyway", "imagine": a writer's word, not a title's
            and content_stems(w)
            and all(vocab.df.get(st, 0) <= RARE_WORD_MAX_ABSTRACTS for st in content_stems(w))
        }

    def find(self, text: str, *, strong_only: bool = False) -> list[str]:
        """Papers the text names, in order of first mention; labels and title heads first,
        runs of title words and rare title words only when neither names anything (and not
        with `strong_only`: a question's own words name a paper only by label or title)."""
        # Positions are word offsets, so labels and title heads order alike.
        spans: dict[str, tuple[int, int]] = {}  # paper -> (first word, words) of its first mention
        text = fold(text)  # labels are held folded: "TÜLU 3" and "Tulu 3" name the same paper
        for label, pids in self.labels.items():
            m = re.search(rf"(?<![\w-]){re.escape(label)}(?![\w-])", text) if label in text else None
            if m:
                for pid in pids:
                    spans.setdefault(pid, (len(_plain(text[: m.start()])), len(_plain(label))))
        joined = " " + _phrase(text) + " "
        for phrase, pids in self.heads.items():
            k = joined.find(f" {phrase} ")
            if k >= 0 and len(phrase.split()) >= 2:
                for pid in pids:
                    spans.setdefault(pid, (joined[:k].count(" "), len(phrase.split())))
        strong = {p: at for p, (at, _) in _outermost(spans).items()}
        if strong or strong_only:
            return sorted(strong, key=lambda p: (strong[p], p))
        weak: dict[str, int] = {}
        ws = _tokens(text)
        for i in range(len(ws) - TITLE_RUN + 1):
            for pid in self.runs.get(tuple(ws[i : i + TITLE_RUN]), ()):
                weak.setdefault(pid, i)
        for i, w in enumerate(ws):
            if w in self.rare:
                weak.setdefault(self.rare[w], i)
        return sorted(weak, key=lambda p: (weak[p], p))
