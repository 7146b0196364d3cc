"""Models: sentence embedders and LLM clients."""
