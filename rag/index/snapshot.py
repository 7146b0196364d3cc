"""A consistent, read-only view of the index (papers, sentences, vectors, BM25) for answering."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from rag.index.authors import AuthorIndex, SurnameIndex
from rag.index.authors import fold as fold_name
from rag.index.bm25 import Bm25Index
from rag.index.chunks import Record
from rag.index.links import LinkIndex
from rag.index.long_forms import long_form_table, long_forms_in
from rag.index.mentions import Mentions, naming_labels
from rag.index.spelling import Speller
from rag.index.title_refs import TitleIndex
from rag.index.vocabulary import Vocabulary
from rag.text.normalize import bare_title, content_stems, fold, spaced_words, squash, words, writes_name
from rag.types import Paper

_PROPER_WORD = re.compile(r"(?<![\w-])[A-Z][a-z][\w-]*")

TITLE_MIN_WORDS = 4  # a run this long that is a whole title names its paper in any case
_WORD_RUN = re.compile(r"\w+")
_NAMED_MEMO = 256  # questions whose named papers a snapshot remembers


@dataclass
class Snapshot:
    """A consistent, read-only view of the index used to answer questions."""

    stamp: str
    papers: dict[str, Paper]
    hashes: dict[str, str]
    sentences: dict[str, Record]
    bm25_sentences: Bm25Index | None
    bm25_papers: Bm25Index | None
    by_paper: dict[str, list[Record]] = field(default_factory=dict)
    vectors: dict[str, np.ndarray] = field(default_factory=dict)  # sentence id -> unit vector
    paper_ids: list[str] = field(default_factory=list)  # row order of `centroids`
    centroids: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), dtype=np.float32))
    bm25_sentence_ids: list[str] = field(default_factory=list)  # document order inside BM25
    bm25_paper_ids: list[str] = field(default_factory=list)
    stems: dict[str, set[str]] | None = None  # each paper's content stems, when persisted
    matrix: np.ndarray | None = None  # the sentence vectors as rows, in `sentences` order, when persisted
    _named_memo: dict[str, frozenset[str]] = field(default_factory=dict, init=False, repr=False, compare=False)

    # What callers keep deriving from a snapshot, computed once per snapshot. The API stays in
    # chunk ids and plain values so the storage behind it can change.
    def quote(self, chunk_id: str) -> str:
        """The verbatim abstract text of a sentence chunk."""
        m = self.sentences[chunk_id].metadata
        return self.papers[m["paper_id"]].abstract[int(m["start"]) : int(m["end"])]

    def paper_quotes(self, paper_id: str) -> list[tuple[str, str]]:
        """(chunk id, verbatim sentence) of a paper's chunks, in order."""
        return [(n.node_id, self.quote(n.node_id)) for n in self.by_paper.get(paper_id, [])]

    @cached_property
    def mentions(self) -> Mentions:
        """Finds the papers a text names (labels, title heads, distinctive title words)."""
        return Mentions(self.papers, self.vocabulary, self.naming)

    @cached_property
    def authors(self) -> AuthorIndex:
        """Finds the indexed authors a text names by full name."""
        return AuthorIndex(self.papers)

    @cached_property
    def spaced_texts(self) -> dict[str, str]:
        """Each paper's title and abstract as `spaced_words`, for phrases asked word for word."""
        return {pid: spaced_words(f"{p.title or ''} {p.abstract}") for pid, p in self.papers.items()}

    @cached_property
    def surnames(self) -> SurnameIndex:
        """Finds the papers "<surname> et al." can mean."""
        return SurnameIndex(self.papers)

    @cached_property
    def links(self) -> LinkIndex:
        """Finds the papers whose links a text pastes."""
        return LinkIndex(self.papers)

    @cached_property
    def label_counts(self) -> Counter[str]:
        """How many papers have each label, any case."""
        return Counter(p.label.lower() for p in self.papers.values())

    @cached_property
    def titles(self) -> TitleIndex:
        """Finds the paper a "the paper on <title words>" phrase refers to."""
        return TitleIndex(self.papers, self.vocabulary.df)

    def referenced_in(self, text: str) -> set[str]:
        """Papers the text refers to by their title's words (`title_refs`)."""
        return set(self.titles.referenced(text))

    def by_label(self, pids: Iterable[str]) -> dict[str, list[str]]:
        """`pids` grouped by label, any case (a group of several: papers with one name)."""
        out: dict[str, list[str]] = {}
        for p in sorted(pids):
            out.setdefault(self.papers[p].label.lower(), []).append(p)
        return out

    def shared_title_refs(self, text: str) -> list[list[str]]:
        """The text's title references that several papers' titles hold alike (`title_refs`)."""
        return self.titles.shared(text)

    @cached_property
    def squashed(self) -> dict[str, str]:
        """Each paper's title, label and abstract, squashed (`normalize.squash`): which papers
        write a name. Built on the first question that needs it."""
        return {pid: squash(f"{p.title or ''} {p.label} {p.abstract}") for pid, p in self.papers.items()}

    @cached_property
    def proper_words(self) -> frozenset[str]:
        """The capitalised words the abstracts write ("Kaplan" of "Kaplan et al. (2020)"), folded
        as author names are (`authors.fold`):
        a surname among them may be a cited work's. Built on the first question that needs it."""
        return frozenset(fold_name(w) for p in self.papers.values() for w in _PROPER_WORD.findall(p.abstract))

    @cached_property
    def naming(self) -> set[str]:
        """Papers whose label names them (see `mentions.naming_labels`)."""
        return naming_labels(self.papers)

    @cached_property
    def speller(self) -> Speller:
        """Reads names as typed ("LLMSRBench", "Adasplsh") as the labels they stand for."""
        return Speller({p: self.papers[p].label for p in self.naming}, self.vocabulary.df)

    @cached_property
    def vocabulary(self) -> Vocabulary:
        return Vocabulary(self.papers, self.stems)

    @cached_property
    def dense_rows(self) -> tuple[list[str], np.ndarray, np.ndarray]:
        """(sentence ids, their unit vectors as one matrix, each row's paper id) for exact
        dense search: the persisted matrix itself when there is one (memory-mapped, no copy)."""
        ids = list(self.vectors)
        if self.matrix is not None and len(self.matrix) == len(ids) and ids == list(self.sentences):
            matrix = self.matrix
        else:
            matrix = np.stack([self.vectors[i] for i in ids]) if ids else np.zeros((0, 1), dtype=np.float32)
        owner = np.asarray([self.sentences[i].metadata["paper_id"] for i in ids], dtype=object)
        return ids, np.asarray(matrix, dtype=np.float32), owner

    @cached_property
    def sentence_row(self) -> dict[str, int]:
        """Sentence id -> its row in `dense_rows`' matrix."""
        return {cid: i for i, cid in enumerate(self.dense_rows[0])}

    @cached_property
    def paper_rows(self) -> dict[str, np.ndarray]:
        """Paper id -> the matrix rows of its sentences, in the abstract's order: a paper's
        vectors in one indexing, not one memory-mapped row object per sentence."""
        row = self.sentence_row
        return {
            pid: np.asarray([row[n.node_id] for n in nodes if n.node_id in row], dtype=np.intp)
            for pid, nodes in self.by_paper.items()
        }

    def rows_of(self, ids: list[str]) -> np.ndarray:
        """The vectors of these sentences as rows (ids must have vectors)."""
        row = self.sentence_row
        return self.dense_rows[1][[row[i] for i in ids]]

    @cached_property
    def centroid_row(self) -> dict[str, int]:
        """Paper id -> its row in `centroids`."""
        return {pid: i for i, pid in enumerate(self.paper_ids)}

    @cached_property
    def sentence_owner(self) -> np.ndarray:
        """Paper id of each BM25 sentence document, in BM25 order."""
        return np.asarray([self.sentences[i].metadata["paper_id"] for i in self.bm25_sentence_ids], dtype=object)

    @cached_property
    def paper_owner(self) -> np.ndarray:
        return np.asarray(self.bm25_paper_ids, dtype=object)

    @cached_property
    def _label_table(self) -> tuple[dict[str, set[str]], dict[str, dict[str, str]]]:
        """Labels of word characters, by their text; the others ("C++", "MGD$^3$"), by their
        first run of word characters, which a question naming them has as a whole token (the
        run of a label found in the question keeps the label's own edges), so each question
        scans only the few that can match (at 2,416 papers, 442 such labels, mostly titles:
        0.25 -> 0.12 ms a look-up, four look-ups an answer)."""
        exact: dict[str, set[str]] = {}
        odd: dict[str, dict[str, str]] = {}
        for pid, p in self.papers.items():
            if pid in self.naming:
                label = fold(p.label)  # "TÜLU 3" is asked as "Tulu 3"
                if re.fullmatch(r"[\w-]+(?:\s+[\w-]+)*", label):
                    exact.setdefault(label, set()).add(pid)
                elif len(label) >= 3:  # labels with other characters keep the exact scan
                    first = _WORD_RUN.search(label)
                    odd.setdefault(first.group(0) if first else "", {})[pid] = label
        return exact, odd

    @cached_property
    def _one_word_labels(self) -> set[str]:
        """One-word labels matched in any case, unless the word is common in the abstracts
        (with thousands of papers some paper coins "GAP"; "gap" in a question names nobody)."""
        return set(self._any_case_labels)

    @cached_property
    def _any_case_labels(self) -> dict[str, set[str]]:
        df = self.vocabulary.df
        out: dict[str, set[str]] = {}
        for pid, p in self.papers.items():
            if " " not in p.label and max((df.get(s, 0) for s in content_stems(p.label)), default=0) <= 2:
                out.setdefault(fold(p.label).lower(), set()).add(pid)
        return out

    def named_in(self, question: str) -> set[str]:
        """Papers whose label the question contains (case-sensitive, whole words), found by
        looking up the question's word n-grams in a table built once per snapshot; a naming
        one-word label no abstract uses as a common word also in lowercase ("adasplash": users
        type names in lowercase, and at 2,416 papers a FlashAttention paper answered for it).
        Remembered per question: one answer asks it of the same question several times."""
        found = self._named_memo.get(question)
        if found is None:
            if len(self._named_memo) >= _NAMED_MEMO:
                self._named_memo.clear()
            found = self._named_memo[question] = frozenset(self._named_in(question))
        return set(found)

    def _named_in(self, question: str) -> set[str]:
        exact, odd = self._label_table
        question = fold(question)
        tokens = [(m.start(), m.end()) for m in re.finditer(r"[\w-]+", question)]
        found: set[str] = set()
        for i in range(len(tokens)):
            for j in range(i, min(i + 6, len(tokens))):
                found |= exact.get(question[tokens[i][0] : tokens[j][1]], set())
        any_case = self._any_case_labels
        for a, b in tokens:
            # Typed all in lowercase only: "Medusa" as another paper's baseline is not "MEDUSA".
            if question[a:b].islower():
                found |= any_case.get(question[a:b], set()) & self.naming
        keyed: dict[str, str] = dict(odd.get("", {}))
        for run in dict.fromkeys(_WORD_RUN.findall(question)):
            keyed.update(odd.get(run, {}))
        return (
            found
            | named_papers(question, keyed)
            | self._titles_in(question)
            | long_forms_in(question, self.long_forms, self.spaced_texts)
        )

    @cached_property
    def long_forms(self) -> dict[tuple[str, ...], set[str]]:
        """Naming labels' long forms ("rooted logistic objectives" for RLO), with their papers."""
        return long_form_table(self.papers, self.naming)

    @cached_property
    def _whole_titles(self) -> dict[tuple[str, ...], list[tuple[list[str], str]]]:
        """Titles of `TITLE_MIN_WORDS` words or more as `spaced_words`, by their first words."""
        out: dict[tuple[str, ...], list[tuple[list[str], str]]] = {}
        for pid, p in self.papers.items():
            ws = spaced_words(bare_title(p.title)).split()
            if len(ws) >= TITLE_MIN_WORDS:
                out.setdefault(tuple(ws[:TITLE_MIN_WORDS]), []).append((ws, pid))
        return out

    def _titles_in(self, question: str) -> set[str]:
        """Papers whose whole title the question writes, in any case: "efficiently learning
        one-hidden-layer relu networks via …" names that paper as its label would (a title
        is seldom typed with its capitals, and labels are matched as written)."""
        ws = spaced_words(question).split()
        found: set[str] = set()
        for i in range(len(ws) - TITLE_MIN_WORDS + 1):
            for title, pid in self._whole_titles.get(tuple(ws[i : i + TITLE_MIN_WORDS]), []):
                if ws[i : i + len(title)] == title:
                    found.add(pid)
        return found

    def names_any(self, question: str) -> bool:
        """Whether a word of the question is some paper's one-word label (any case)."""
        return bool(self._one_word_labels & set(words(question)))


def named_papers(question: str, labels: dict[str, str]) -> set[str]:
    """Papers whose label appears in the question as a whole word (case-sensitive)."""
    folded = fold(question)  # a label not in the text at all is most of them: skipped cheaply
    return {
        pid
        for pid, label in labels.items()
        if len(label) >= 3 and fold(label) in folded and writes_name(question, label)
    }
