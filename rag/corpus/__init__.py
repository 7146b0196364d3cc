"""Corpus files: reading abstracts and their metadata sidecars; paper labels."""
