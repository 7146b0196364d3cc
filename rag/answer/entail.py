"""The optional LLM judge (RAG_VERIFY_LLM=1): asks an OpenAI-compatible model whether the
evidence entails a sentence the rules accepted. A failure never blocks an answer: the caller
keeps the rules-only decision and reports the error."""

from __future__ import annotations

import logging
import re
import time
from dataclasses import dataclass

from rag.answer.prompts import entail_messages
from rag.models.deadline import with_deadline
from rag.models.llm import ChatLLM, LLMError

log = logging.getLogger(__name__)

_VERDICT = re.compile(r"^\W*(yes|no|true|false|entailed|not)\b", re.I)
MAX_VERDICT_TOKENS = 4


@dataclass
class Verdict:
    entailed: bool | None  # None: no usable answer (see `error`)
    error: str | None
    seconds: float


def parse_verdict(text: str) -> bool | None:
    """ "Yes." -> True, "no, because …" -> False, anything else -> None."""
    m = _VERDICT.match(text or "")
    if not m:
        return None
    return m.group(1).lower() in {"yes", "true", "entailed"}


class EntailmentJudge:
    """Yes/no entailment questions to a chat LLM, each within `timeout` seconds."""

    def __init__(self, llm: ChatLLM, *, timeout: float = 10.0) -> None:
        self.llm = llm
        self.timeout = timeout

    def check(self, claim: str, evidence: str) -> Verdict:
        t0 = time.perf_counter()
        messages = entail_messages(claim, evidence)
        stream = with_deadline(
            lambda: self.llm.stream(messages, max_tokens=MAX_VERDICT_TOKENS, temperature=0.0),
            deadline=t0 + self.timeout,
            budget=self.timeout,
        )
        try:
            text = "".join(stream)
        except Exception as e:
            msg = str(e) if isinstance(e, LLMError) else f"the LLM judge failed: {type(e).__name__}"
            return Verdict(None, f"LLM judge: {msg}", time.perf_counter() - t0)
        finally:
            stream.close()
        seconds = time.perf_counter() - t0
        verdict = parse_verdict(text)
        log.debug("LLM judge answered %r in %.2fs", text[:20], seconds)
        if verdict is None:
            return Verdict(None, "LLM judge: the answer was neither yes nor no", seconds)
        return Verdict(verdict, None, seconds)
