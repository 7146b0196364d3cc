"""Evaluation: eval-set schema, grounding metrics, reports, and the one runner shared by the CLI and the app."""
