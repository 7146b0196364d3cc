"""Where a text names indexed papers: labels, title heads, title runs and rare title words."""

import pytest

from rag.index.mentions import Mentions, expansions, naming_labels
from rag.index.vocabulary import Vocabulary
from rag.types import Paper

# Words most abstracts share, so they are neither rare nor distinctive.
COMMON = "We train language models with scaling, sampling, inference compute, dense layers, laws, rewards and transfer memories."
TITLES = {
    "p1": ("FooNet", "Large Language Monkeys: Scaling Inference Compute with Repeated Sampling"),
    "p2": ("BarGAN", "Sparse Upcycling of Dense Checkpoints"),
    "p3": ("KV", "Feed-Forward Layers Are Key-Value Memories"),
    "p4": ("Qux", "Scaling Laws for Neural Language Models"),
    "p5": ("Zap", "Scaling Laws for Reward Model Overoptimization"),
    "p6": ("Zop", "Scaling Laws for Transfer"),
    "p7": ("Nil", None),
    "p8": ("Ada", "Neural Language Models Revisited"),
    "p9": ("Tam", "Taming Large Language Monkeys with Verifiers"),
}
PAPERS = {
    pid: Paper(paper_id=pid, source="s", position=i + 1, abstract=f"{COMMON} Paper {i}.", label=label, title=title)
    for i, (pid, (label, title)) in enumerate(TITLES.items())
}
MENTIONS = Mentions(PAPERS, Vocabulary(PAPERS), naming_labels(PAPERS))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # labels: case-sensitive, whole words only
        ("FooNet beats BarGAN.", ["p1", "p2"]),
        ("BarGAN, then **FooNet**", ["p2", "p1"]),  # order of first mention
        ("foonet and bargan", []),
        ("FooNets, FooNet-2 and pre-FooNet", []),
        ("KV caches", []),  # labels under 3 characters are never matched
        # title heads (before ':') and full titles, case-insensitive
        ("What do Large Language Monkeys show?", ["p1"]),
        ("large language MONKEYS", ["p1"]),
        ("Read 'Sparse upcycling of dense checkpoints' first.", ["p2"]),
        ("Scaling Laws for Transfer vs FooNet", ["p6", "p1"]),
        ("FooNet vs Scaling Laws for Transfer", ["p1", "p6"]),
        # a whole title names its paper, not the one whose head it writes inside
        ("What does Taming Large Language Monkeys with Verifiers show?", ["p9"]),
        # runs of 3 title words shared by at most 2 titles
        ("more inference compute helps", []),  # a 2-word run of the title is not enough
        ("scaling inference compute matters", ["p1"]),  # all three words common
        ("scaling laws for reward hacking", ["p5"]),
        ("are neural language models big?", ["p4", "p8"]),  # a run of exactly two titles names both
        ("scaling laws for everything", []),  # "scaling laws for" is in 3 titles
        ("layers are key-value stores", ["p3"]),
        # a title word rare in the abstracts and in one title only
        ("we do upcycling here", ["p2"]),
        ("what causes overoptimization?", ["p5"]),
        # hyphenated words stay whole: "feed-forward" alone is no run
        ("a feed-forward network with dense layers", []),
        # common words name nothing
        ("How do language models scale inference compute and sampling?", []),
        ("Which memories transfer to dense layers?", []),
        ("", []),
    ],
)
def test_find(text: str, expected: list[str]) -> None:
    assert MENTIONS.find(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("we do upcycling here", []),  # rare word: weak
        ("scaling inference compute matters", []),  # title run: weak
        ("Compare Large Language Monkeys with BarGAN", ["p1", "p2"]),
        ("FooNet and upcycling", ["p1"]),
    ],
)
def test_strong_only_ignores_weak_tiers(text: str, expected: list[str]) -> None:
    assert MENTIONS.find(text, strong_only=True) == expected


def test_strong_mentions_hide_weak_ones() -> None:
    assert MENTIONS.find("FooNet and upcycling") == ["p1"]


def test_index_contents() -> None:
    assert set(MENTIONS.labels) == {"FooNet", "BarGAN", "Qux", "Zap", "Zop", "Nil", "Ada", "Tam"}
    assert "large language monkeys" in MENTIONS.heads
    assert ("scaling", "laws", "for") not in MENTIONS.runs
    assert MENTIONS.rare.get("upcycling") == "p2"
    assert "language" not in MENTIONS.rare and "sampling" not in MENTIONS.rare


def test_order_survives_citation_markers() -> None:
    assert MENTIONS.find("[1] [2] [3] [4] BarGAN; Large Language Monkeys") == ["p2", "p1"]


def _paper(pid: str, label: str, title: str, abstract: str) -> Paper:
    return Paper(paper_id=pid, label=label, title=title, abstract=abstract, source="t", position=1)


@pytest.mark.parametrize(
    ("label", "title", "names"),
    [
        ("MLE", "On Estimation in Mixtures", False),  # an acronym every other abstract writes
        ("TOFU", "TOFU: A Task of Fictitious Unlearning", True),  # coined by its title
        ("FAST", "Fast Sampling for Games", True),  # "fast" is common, "FAST" is not
        ("Deep Nets Fold", "Deep Nets Fold", True),  # a title as label is specific
    ],
)
def test_naming_labels_skip_acronyms_many_abstracts_write(label: str, title: str, names: bool) -> None:
    others = {
        f"o#{i}": _paper(f"o#{i}", f"Other {i}", f"Other {i}", f"We use MLE and TOFU; it is fast and fast. {i}")
        for i in range(5)
    }
    papers = {"p#1": _paper("p#1", label, title, f"{label} is our method."), **others}
    assert ("p#1" in naming_labels(papers)) is names
    assert (
        "p#1" in Mentions(papers, Vocabulary(papers), naming_labels(papers)).find(f"What does {label} do?")
    ) is names


def test_a_title_with_math_is_named_as_a_reader_writes_it() -> None:
    # "$f$-differential" in the title, "f-differential" in the text: the same words, so the
    # title names its paper beside another one named by its label.
    papers = {
        "a": _paper("a", "Auditing f-DP", "Auditing $f$-Differential Privacy in One Run", COMMON),
        "b": _paper("b", "PRISM", "Fragments to Facts: Partial Fragment Inference", COMMON),
    }
    m = Mentions(papers, Vocabulary(papers), naming_labels(papers))
    text = "'Auditing f-differential privacy in one run' audits once, and PRISM infers fragments."
    assert m.find(text, strong_only=True) == ["a", "b"]


DEFINING = {
    "d1": ("LSMI", "We introduce the Lightweight Sample-wise Multimodal Interaction (LSMI) estimator."),
    "d2": ("SBS", "We propose Speed-Based Sampling (SBS) for fast decoding."),
    "d3": ("EVIs", "A relaxation we refer to as *expected variational inequalities* (EVIs) is solvable."),
    "d4": ("CommVQ", "We propose Commutative Vector Quantization (CommVQ)."),  # no initials: not taken
    "d10": ("SGLMs", "We fit *Sparse Graded Linear Models* (SGLMs) to counts."),  # markdown, plural label
    "d5": ("MIL", "We study Multiple Instance Learning (MIL) with noisy bags."),  # a field, see below
    "d6": ("Zed", "Bags in multiple instance learning are sets of instances."),
    "d7": ("Yak", "Weakly supervised multiple instance learning of bags."),
    "d8": ("Yam", "Attention-based multiple instance learning pools bags."),
    "d9": ("Yew", "Multiple instance learning for pathology slides."),
}
DEF_PAPERS = {
    pid: _paper(pid, label, f"Title of {pid}", f"{abstract} Extra words {pid}.")
    for pid, (label, abstract) in DEFINING.items()
}


@pytest.mark.parametrize(
    ("pid", "expected"),
    [
        ("d1", {"lightweight sample wise multimodal interaction"}),
        ("d2", {"speed based sampling"}),  # initials of a hyphenated word's parts
        ("d3", set()),  # lowercase: a term of the field ("constraint satisfaction problems (CSPs)")
        ("d4", set()),
        ("d10", {"sparse graded linear models"}),
        ("d5", set()),  # four more abstracts say "multiple instance learning"
    ],
)
def test_expansions_are_the_long_form_a_paper_defines_its_label_by(pid: str, expected: set[str]) -> None:
    assert expansions(DEF_PAPERS[pid], Vocabulary(DEF_PAPERS)) == expected


def test_a_text_spelling_out_a_label_names_its_paper() -> None:
    mentions = Mentions(DEF_PAPERS, Vocabulary(DEF_PAPERS), naming_labels(DEF_PAPERS))
    text = "You could use the Lightweight Sample-wise Multimodal Interaction estimator."
    assert mentions.find(text, strong_only=True) == ["d1"]
    assert mentions.find("Multiple instance learning with bags.", strong_only=True) == []
