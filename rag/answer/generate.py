"""LLM answers that cannot lie: numbered evidence in, every sentence verified before release."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rag.answer.cite import CitationBuilder, display_sentence
from rag.answer.entail import EntailmentJudge
from rag.answer.prompts import build_messages
from rag.answer.verify import EvidenceItem, Verified, markers_before_period, parse_output, verify_claim
from rag.models.deadline import with_deadline
from rag.models.llm import ChatLLM, LLMError
from rag.retrieval.retriever import Retriever
from rag.text.normalize import sentence_spans
from rag.types import REFUSAL, Answer, Closest, SentenceCheck

log = logging.getLogger(__name__)

_LEAD_MARKERS = re.compile(r"^\s*((?:\[[\d,;\s]+\]\s*)+)")
MAX_CHARS_PER_TOKEN = 12  # generous: English averages about 4 characters per token
# A "which papers" list can quote dozens of papers; the LLM is shown the first ones (best first),
# which keeps its prompt well inside a small local model's context and its answer quick.
PROMPT_EVIDENCE_MAX = 16


def pop_complete(buffer: str) -> tuple[list[str], str]:
    """Split a streaming buffer into complete sentences and the unfinished rest.

    A sentence is complete once the next one has begun; citation markers that open the
    next piece ("… end. [1] Next") still belong to the sentence before.
    """
    buffer = markers_before_period(buffer)
    spans = sentence_spans(buffer, glue_short=False)
    if len(spans) < 2:
        return [], buffer
    done = [buffer[s:e] for s, e in spans[:-1]]
    rest = buffer[spans[-1][0] :]
    lead = _LEAD_MARKERS.match(rest)
    if lead:
        if rest[lead.end() :].strip():
            done[-1] += " " + lead.group(1).strip()
            rest = rest[lead.end() :]
        else:  # only markers so far: wait for what follows
            return done[:-1], buffer[spans[-2][0] :]
    return done, rest


class _Verifier:
    """Verifies claims against the numbered evidence and renumbers citations per paper."""

    def __init__(self, base: Answer, retriever: Retriever, entail: EntailmentJudge | None = None) -> None:
        snap = retriever.snapshot
        self.entail = entail
        self.entail_error: str | None = None
        self.papers = snap.papers
        self.retriever = retriever
        self.evidence: dict[int, EvidenceItem] = {}
        for i, s in enumerate(base.sentences, start=1):
            cite = next(c for c in base.citations if c.n == s.citations[0])
            self.evidence[i] = EvidenceItem(i, cite.paper_id, s.evidence_quote or cite.quote)
        pids = {e.paper_id for e in self.evidence.values()}
        self.paper_sentences = {pid: [q for _, q in snap.paper_quotes(pid)] for pid in pids}
        self.abstracts = {pid: self.papers[pid].abstract for pid in pids}
        self.labels = {pid: self.papers[pid].label for pid in pids}
        self.builder = CitationBuilder()
        self.checks: list[SentenceCheck] = []
        self.released: list[str] = []
        self.refused = False

    def cosine(self, a: str, b: str) -> float:
        return self.retriever.cosine(a, b)

    def numbered(self) -> list[tuple[int, str, str]]:
        shown = list(self.evidence.items())[:PROMPT_EVIDENCE_MAX]
        return [(n, self.papers[e.paper_id].label, display_sentence(e.quote)) for n, e in shown]

    def feed(self, sentence: str) -> list[str]:
        claims, refused = parse_output(sentence)
        self.refused |= refused
        out = []
        for claim in claims:
            if any(r.startswith(f"{claim.text} [") for r in self.released):
                log.debug("dropped a repeated sentence: %s", claim.text)  # small models loop
                continue
            v = verify_claim(
                claim, self.evidence, self.paper_sentences, self.abstracts, self.cosine, labels=self.labels
            )
            if v.supported and v.evidence_quote:
                v = self.ask_llm_judge(v)
            if v.supported and v.paper_id and v.evidence_quote:
                n = self.builder.cite(self.papers[v.paper_id], v.evidence_quote)
                text = f"{claim.text} [{n}]"
                self.released.append(text)
                out.append(text)
                self.checks.append(
                    SentenceCheck(
                        text=claim.text,
                        citations=[n],
                        supported=True,
                        evidence_quote=v.evidence_quote,
                        reason=v.reason,
                    )
                )
            else:
                self.checks.append(SentenceCheck(text=claim.text, citations=[], supported=False, reason=v.reason))
        return out

    def ask_llm_judge(self, v: Verified) -> Verified:
        """With RAG_VERIFY_LLM, a sentence the rules accept must also be entailed by its
        evidence in the LLM judge's view; after one failure the rules decide alone."""
        if self.entail is None or self.entail_error is not None or not v.evidence_quote:
            return v
        verdict = self.entail.check(v.text, display_sentence(v.evidence_quote))
        if verdict.entailed is None:
            self.entail_error = verdict.error
            log.warning("%s; keeping the rules' decisions", verdict.error)
            return v
        if not verdict.entailed:
            return replace(v, supported=False, reason="LLM judge: evidence does not entail it")
        return replace(v, reason=f"{v.reason} (LLM judge: entailed)")


def llm_answer(
    question: str,
    base: Answer,
    *,
    llm: ChatLLM,
    retriever: Retriever,
    backend: str,
    t0: float,
    on_sentence: Callable[[str], None] | None = None,
    max_tokens: int = 256,
    temperature: float = 0.0,
    timeout: float = 60.0,
    entail: EntailmentJudge | None = None,
) -> Answer:
    """`base` is the extractive answer (same retrieval and evidence); if it refused, the
    LLM is not called. Otherwise the LLM writes, and each sentence is released (via
    `on_sentence`) only once it is complete and verified. No supported sentence, or any LLM
    failure, gives the extractive answer instead (`answer_source` "fallback"). With `entail`
    (RAG_VERIFY_LLM), each sentence the rules accept is also put to the LLM judge."""
    base.backend = backend
    if base.refused:
        if on_sentence:
            on_sentence(base.answer)
        return base
    v = _Verifier(base, retriever, entail)
    messages = build_messages(question, v.numbered())
    try:
        first_token = _stream(llm, messages, v, t0, on_sentence, max_tokens, temperature, timeout)
    except Exception as e:
        msg = str(e) if isinstance(e, LLMError) else f"the LLM failed: {type(e).__name__}"
        log.warning("%s; answering from the evidence instead", msg)
        return _fallback(base, t0, msg, on_sentence, v.released)
    out = _assemble(base, v, t0, first_token, on_sentence, retriever)
    if v.entail_error and not out.backend_error:
        out.backend_error = f"{v.entail_error} (sentences checked by the rules only)"
    return out


def _stream(
    llm: ChatLLM,
    messages: list[dict[str, str]],
    v: _Verifier,
    t0: float,
    on_sentence: Callable[[str], None] | None,
    max_tokens: int,
    temperature: float,
    timeout: float,
) -> float | None:
    """Stream the LLM's answer through the verifier, releasing sentences as they pass.
    Returns the time to the first token; raises on any LLM failure."""
    first_token: float | None = None
    buffer = ""
    written = 0  # characters, to cut a server that ignores max_tokens
    wrote = False  # anything but whitespace
    # The LLM gets `timeout` seconds in all (connecting, retries, generation); the stream
    # runs in a worker so a hung or endless backend is cut at the deadline, not at its next token.
    stream = with_deadline(
        lambda: llm.stream(messages, max_tokens=max_tokens, temperature=temperature),
        deadline=time.perf_counter() + timeout,
        budget=timeout,
    )
    release = on_sentence or (lambda _: None)
    try:
        for delta in stream:
            if first_token is None:
                first_token = time.perf_counter() - t0
            written += len(delta)
            wrote = wrote or bool(delta.strip())
            if written > max_tokens * MAX_CHARS_PER_TOKEN:
                # A server ignoring max_tokens would otherwise grow the buffer until the deadline.
                raise LLMError(f"the LLM kept writing past max_tokens ({max_tokens})")
            buffer += delta
            done, buffer = pop_complete(buffer)
            for sentence in done:
                for text in v.feed(sentence):
                    release(text)
        if not wrote:
            raise LLMError("the LLM returned an empty answer")
        for text in v.feed(buffer):
            release(text)
    finally:
        stream.close()  # stops the worker (and its HTTP stream) when we leave early
    return first_token


def _assemble(
    base: Answer,
    v: _Verifier,
    t0: float,
    first_token: float | None,
    on_sentence: Callable[[str], None] | None,
    retriever: Retriever,
) -> Answer:
    """The answer from the verified sentences: an LLM refusal, a fallback, or the LLM answer."""
    total = len(v.checks)
    kept = sum(c.supported for c in v.checks)
    if not v.released:
        if v.refused:
            if on_sentence:
                on_sentence(REFUSAL)
            papers = retriever.snapshot.papers
            return base.model_copy(
                update={
                    "answer": REFUSAL,
                    "refused": True,
                    "citations": [],
                    "sentences": [],
                    "grounding": 1.0,
                    "answer_source": "llm",
                    "latency_ms": _ms(t0),
                    "closest": [
                        Closest(paper_id=s.paper_id, label=papers[s.paper_id].label, score=s.score)
                        for s in base.sources[:3]
                    ],
                }
            )
        return _fallback(base, t0, None, on_sentence, [], checks=v.checks)
    return base.model_copy(
        update={
            "answer": " ".join(v.released),
            "citations": v.builder.citations,
            "sentences": v.checks,
            "grounding": round(kept / total, 4) if total else 0.0,
            "answer_source": "llm",
            "latency_ms": _ms(t0),
            "first_token_ms": round(first_token * 1000, 2) if first_token is not None else None,
        }
    )


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 2)


def _fallback(
    base: Answer,
    t0: float,
    error: str | None,
    on_sentence: Callable[[str], None] | None,
    released: list[str],
    checks: list[SentenceCheck] | None = None,
) -> Answer:
    # Nothing verified reached the user yet: stream the extractive sentences instead.
    if on_sentence and not released:
        for line in base.answer.splitlines():
            on_sentence(line)
    upd: dict[str, Any] = {"answer_source": "fallback", "latency_ms": _ms(t0)}
    if error:
        upd["backend_error"] = error
    if checks:
        upd["grounding"] = 0.0
        upd["sentences"] = [*checks, *base.sentences]
    return base.model_copy(update=upd)
