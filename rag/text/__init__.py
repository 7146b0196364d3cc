"""Text handling: normalisation, file decoding, sentence splitting, the injection guard."""
