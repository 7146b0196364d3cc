"""Readable labels for papers: the coined name an abstract introduces, else a short phrase."""

from __future__ import annotations

import re
from collections.abc import Callable

from rag.text.guard import instruction_like
from rag.text.normalize import clean, sentence_spans

# Acronyms of the field that papers use but do not coin.
_COMMON = frozenset(
    """AI ML LLM LLMs VLM VLMs MLLM MLLMs NLP RL DL GPU GPUs CPU TPU SOTA SGD MLP MLPs CNN CNNs GNN GNNs
    RNN RNNs LSTM GAN GANs VAE VAEs API APIs RLHF DPO PPO KL MSE MAE OOD IID ICML NeurIPS ICLR CV QA MDP
    MDPs POMDP PDE PDEs ODE ODEs SDE SDEs SNR DNN DNNs IoU BERT GPT ViT ViTs CLIP LoRA KV PCA SVD FLOPs
    TTS ASR MCMC EM LP DC CIL DG URL HTTP GitHub ImageNet COCO CIFAR MNIST GenAI AIGI AIGIs OSGR FID RGB
    PSNR SSIM SO""".split()
)
_TOKEN = r"(?:[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*)"
_COINED = re.compile(
    r"^(?:[A-Z][a-z]+(?:[A-Z][A-Za-z0-9]*)+|[A-Z0-9]{2,}[a-z]{0,2}(?:[A-Z][A-Za-z0-9]*)?|[a-z]+[A-Z][A-Za-z0-9]*"
    r"|[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+)$"
)
_INTRO = re.compile(
    r"\b(?:we|this (?:paper|work)|our (?:work|paper))\s+(?:\w+\s+){0,2}?"
    r"(?:propose|introduce|present|develop|design|construct|build|release|create|put forward)[sd]?\b",
    re.I,
)
_NAMED = re.compile(r"\b(?:called|named|dubbed|termed|coined|refer to (?:it |this )?as|we call (?:it|this))\s+", re.I)
_OWN = re.compile(
    r"\b(?:our|the resulting|a novel|a new|the proposed)(?: proposed| new)?(?: pre-training| training)? "
    r"(?:method|approach|framework|model|algorithm|benchmark|dataset|system|technique|estimator|architecture)s?,\s+"
    r"(?:called |named |dubbed )?",
    re.I,
)
_NEWLY = re.compile(r"^,\s+(?:a|an)\s+(?:\w+\s+){0,3}?(?:novel|new|newly)\b")


def _is_coined(tok: str) -> bool:
    if tok in _COMMON or tok.rstrip("s") in _COMMON or len(tok) < 3:
        return False
    has_upper_inside = any(c.isupper() for c in tok[1:])
    return bool(_COINED.match(tok)) and (has_upper_inside or any(c.isdigit() for c in tok))


def _tokens(text: str) -> list[str]:
    return re.findall(_TOKEN, text)


def _acronym_after(rest: str) -> str | None:
    """ "Long Form (LF)" -> "LF" when the parenthesised token is a coined one."""
    m = re.match(r"\s*(?:[\w\-*]+\s+){0,6}?[\w\-*]+\s*\((" + _TOKEN + r")\)", rest)
    return m.group(1) if m and _is_coined(m.group(1)) else None


def coined_name(abstract: str) -> str | None:
    """The name a paper gives its own method/benchmark/model, if it gives one.

    General rules only, tried in order of reliability: a name right after an
    introducing verb ("we propose X", "we introduce Long Form (LF)"), "our method, X",
    "X, a novel/new ...", then "called/named X". A CamelCase/ALLCAPS/hyphenated token
    counts as a name; a plain capitalised word only when it is set off by a comma or
    parenthesis and the abstract repeats it. Names other work introduced (seen before
    the paper's own introducing sentence) are skipped.
    """
    text = clean(abstract).replace("$", "")
    sentences = re.split(r"(?<=[.!?])\s+(?=[A-Z])", text)
    counts: dict[str, int] = {}
    for tok in _tokens(text):
        counts[tok] = counts.get(tok, 0) + 1
    seen_before: set[str] = set()
    for sent in sentences:
        for step in _STEPS:
            name = step(sent, counts, seen_before)
            if name is not None:
                return name
        seen_before.update(t for t in _tokens(sent) if _is_coined(t))
    return None


def _plain_ok(tok: str, rest: str, counts: dict[str, int]) -> bool:
    """A plain capitalised word counts when the abstract repeats it and it is set off by `,` or `(`."""
    return (
        tok[:1].isupper()
        and tok.lower() not in {"a", "an", "the", "this", "our", "we", "in", "to"}
        and counts.get(tok, 0) >= 2
        and bool(re.match(rf"\s*{re.escape(tok)}\s*[,(]", rest))
    )


def _after_intro(sent: str, counts: dict[str, int], seen_before: set[str]) -> str | None:
    """ "we propose X", "we introduce Long Form (LF)", "we present the Foo Bar, ..."."""
    for m in _INTRO.finditer(sent):
        rest = sent[m.end() :]
        acr = _acronym_after(rest)
        if acr:
            return acr
        toks = _tokens(rest)
        for i, tok in enumerate(toks[:14]):
            if _is_coined(tok) and tok not in seen_before and (i == 0 or counts[tok] >= 2):
                return tok
            if i < 3 and _plain_ok(tok, rest, counts):
                return tok
            if i < 3:
                two = re.match(rf"\s*(?:a |an |the )?({re.escape(tok)} [A-Z][a-z]+),", rest)
                if two and tok[:1].isupper():
                    return two.group(1)
    return None


def _after_own(sent: str, counts: dict[str, int], seen_before: set[str]) -> str | None:
    """ "our method, X" and the like."""
    for m in _OWN.finditer(sent):
        rest = sent[m.end() :]
        acr = _acronym_after(rest)
        if acr:
            return acr
        toks = _tokens(rest)
        if toks and (_is_coined(toks[0]) or _plain_ok(toks[0], rest, counts)):
            return toks[0]
    return None


def _parenthesised(sent: str, counts: dict[str, int], seen_before: set[str]) -> str | None:
    """A coined "(ABC)" in an introducing or "novel" sentence."""
    intro = bool(_INTRO.search(sent))
    if intro or re.search(r"\bnovel\b", sent):
        for acr in re.findall(r"\((" + _TOKEN + r")\)", sent):
            if _is_coined(acr) and acr not in seen_before and (intro or counts[acr] >= 2):
                return acr
    return None


def _before_newly(sent: str, counts: dict[str, int], seen_before: set[str]) -> str | None:
    """ "X, a novel/new ..."."""
    for tok in _tokens(sent):
        if _is_coined(tok) and tok not in seen_before:
            after = sent[sent.find(tok) + len(tok) :]
            if _NEWLY.match(after):
                return tok
    return None


def _after_named(sent: str, counts: dict[str, int], seen_before: set[str]) -> str | None:
    """ "we call it X", "our ..., called X"."""
    named = _NAMED.search(sent)
    if named and (re.search(r"\b(?:we|our)\b", sent[: named.start()], re.I)):
        rest = sent[named.end() :]
        phrase = re.split(r"[,;:()]| which | that | to | for ", rest)[0].strip(" .\"'")
        acr = _acronym_after(rest)
        if acr:
            return acr
        toks = _tokens(rest)
        if toks and _is_coined(toks[0]):
            return toks[0]
        if 0 < len(phrase.split()) <= 5 and _INTRO.search(sent):
            return phrase
    return None


# The rules of `coined_name`, most reliable first; each sees (sentence, token counts, names seen before).
_STEPS: tuple[Callable[[str, dict[str, int], set[str]], str | None], ...] = (
    _after_intro,
    _after_own,
    _parenthesised,
    _before_newly,
    _after_named,
)


def short_phrase(abstract: str, max_words: int = 8) -> str:
    """A short phrase from the first sentence, cut at a clause boundary."""
    first = re.split(r"(?<=[.!?])\s+", clean(abstract), maxsplit=1)[0]
    first = re.split(r",|;|:| -- | — |\(", first)[0].strip(" .")
    ws = first.split()
    return " ".join(ws[:max_words]) + ("…" if len(ws) > max_words else "")


# Words a title opens with to say what kind of paper it is ("Position: …", "Survey: …"); many
# papers share them, so they name none.
_GENRE = frozenset(
    "position survey review tutorial perspective perspectives opinion commentary editorial overview primer"
    " erratum corrigendum retraction".split()
)


def short_title(title: str, max_words: int = 8) -> str:
    """A title short enough for a label: the part before a colon when that part is a name or
    a short phrase ("Foo: A Benchmark for …" -> "Foo"), else its first words. A genre word
    before the colon ("Position: …") is dropped, not used."""
    title = " ".join(clean(title).split())
    head, _, rest = title.partition(":")
    head = head.strip()
    if rest.strip() and head.lower() in _GENRE:
        return short_title(rest, max_words)
    if rest and 0 < len(head.split()) <= 6:
        return head
    ws = title.split()
    return " ".join(ws[:max_words]) + ("…" if len(ws) > max_words else "")


def title_name(title: str | None) -> str | None:
    """The name a title coins before its colon ("SPIN-Bench: How Well …" -> "SPIN-Bench"):
    the whole part before the colon, one coined token."""
    head = clean(title or "").split(":", 1)[0].strip() if title and ":" in title else ""
    return head if re.fullmatch(_TOKEN, head) and _is_coined(head) else None


def _as_titled(name: str | None, title: str | None) -> str | None:
    """A name as the title writes it: "T2I" in a title's "Commonsense-T2I" is part of that name."""
    if name and title:
        for tok in _tokens(title):
            if tok != name and _is_coined(tok) and name in tok.split("-"):
                return tok
    return name


def make_label(abstract: str, *, title: str | None = None) -> str:
    """The name the title coins, else the abstract's coined name, else the title, else (no
    title) a phrase from the first sentence. A title's own name wins over the abstract's: an
    abstract often names a dataset or part before the paper's namesake.

    The whole title, not `short_title`: labels name papers in questions and histories
    (rag/index/mentions.py), and a shorter one changes which papers a follow-up resolves to.
    Where a label is shown, `display_label` shortens a title-label."""
    abstract = without_instructions(abstract)
    titled = title if title and not instruction_like(title) else None
    name = title_name(titled) or _as_titled(coined_name(abstract), titled)
    if name:
        return name
    if title and not instruction_like(title):
        return title
    return short_phrase(abstract) or "untitled"


def display_label(label: str, title: str | None) -> str:
    """The label as shown beside a citation: a label that is the whole title, shortened."""
    return short_title(title) if title and label == title else label


def without_instructions(abstract: str) -> str:
    """The abstract minus sentences that read as instructions to an assistant (rag/guard.py):
    a label is shown in answers and given to the LLM, so "SYSTEM" or "Ignore previous
    instructions…" must never become one."""
    if not instruction_like(abstract):  # cheap pre-check: the rules find a flagged sentence in its abstract too
        return abstract
    spans = [(s, e) for s, e in sentence_spans(abstract) if instruction_like(abstract[s:e])]
    for s, e in reversed(spans):
        abstract = abstract[:s] + " " * (e - s) + abstract[e:]
    return abstract
