"""`rag bench`: speed and scale figures, and the llama-index baseline."""
