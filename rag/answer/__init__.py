"""Answering: the pipeline and backend registry, conversation focus, evidence, extractive and LLM answers, verification, citations."""
