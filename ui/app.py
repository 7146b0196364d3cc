"""Gradio chat app (first version: chat with cited answers and a sources panel)."""

from __future__ import annotations

import html
import logging
import os
import threading
from typing import Any

import rag  # noqa: F401  (offline environment first)

os.environ.setdefault("GRADIO_ANALYTICS_ENABLED", "False")

import gradio as gr

from rag.engine import Engine
from rag.settings import Settings
from rag.types import Answer

log = logging.getLogger(__name__)

_engine: Engine | None = None
_engine_lock = threading.Lock()

EXAMPLES = [
    "Which optimizer equalizes each parameter's contribution to loss reduction for domain generalization?",
    "How many questions does SNS-Bench contain?",
    "Which papers deal with conformal prediction?",
    "What learning rate does GENIE use?",
]


def get_engine() -> Engine:
    """One engine per process, shared by every session; built on first use."""
    global _engine
    with _engine_lock:
        if _engine is None:
            engine = Engine(Settings())
            engine.ensure_index()
            _engine = engine
    return _engine


def sources_html(a: Answer, engine: Engine) -> str:
    """Cited papers with the supporting sentences highlighted; everything escaped."""
    papers = engine.retriever.snapshot.papers
    if a.refused:
        items = "".join(f"<li>{html.escape(c.label)} <code>{html.escape(c.paper_id)}</code></li>" for c in a.closest)
        return f"<p><b>Not in the abstracts.</b> Closest papers:</p><ul>{items}</ul>"
    out = []
    for n in sorted({c.n for c in a.citations}):
        cites = [c for c in a.citations if c.n == n]
        p = papers.get(cites[0].paper_id)
        if p is None:
            continue
        text = p.abstract
        spans = sorted((text.find(c.quote), len(c.quote)) for c in cites if text.find(c.quote) >= 0)
        parts, pos = [], 0
        for start, length in spans:
            parts.append(html.escape(text[pos:start]))
            parts.append(f"<mark>{html.escape(text[start : start + length])}</mark>")
            pos = start + length
        parts.append(html.escape(text[pos:]))
        title = f" — {html.escape(p.title)}" if p.title else ""
        out.append(
            f"<details open><summary>[{n}] <b>{html.escape(p.label)}</b>{title} "
            f"<code>{html.escape(p.paper_id)}</code></summary><p>{''.join(parts)}</p></details>"
        )
    return "".join(out)


def respond(message: str, history: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], str, str]:
    """Chat handler: returns the updated history, the sources panel and clears the box."""
    from rag.answer import answer

    engine = get_engine()
    message = (message or "").strip()
    if not message:
        return history, "", ""
    turns = [{"role": t["role"], "content": str(t["content"])} for t in history if isinstance(t, dict)]
    a = answer(message[: engine.settings.max_question_chars], retriever=engine.retriever, history=turns)
    history = [*history, {"role": "user", "content": message}, {"role": "assistant", "content": a.answer}]
    return history, sources_html(a, engine), ""


def build_demo() -> gr.Blocks:
    with gr.Blocks(title="ICML 2025 abstracts — cited answers") as demo:
        gr.Markdown("## Ask the ICML 2025 abstracts\nEvery sentence of an answer cites the paper it comes from.")
        with gr.Row():
            with gr.Column(scale=3):
                chat = gr.Chatbot(label="Conversation", height=420)
                box = gr.Textbox(label="Question", placeholder="Ask about the papers…")
                with gr.Row():
                    send = gr.Button("Ask", variant="primary")
                    clear = gr.Button("Clear")
                gr.Examples(EXAMPLES, inputs=box)
            with gr.Column(scale=2):
                gr.Markdown("### Sources")
                sources = gr.HTML()
        send.click(respond, [box, chat], [chat, sources, box], api_name="ask")
        box.submit(respond, [box, chat], [chat, sources, box])
        clear.click(lambda: ([], "", ""), None, [chat, sources, box])
    return demo


demo = build_demo()


def launch(host: str = "127.0.0.1", port: int = 7860) -> int:
    get_engine()  # index and load before the first visitor waits for it
    demo.queue(default_concurrency_limit=4).launch(server_name=host, server_port=port, share=False)
    return 0
