"""Errors the user can fix: printed as one line, never a traceback."""


class UsageError(Exception):
    """A problem the user can fix; printed as one line, never a traceback."""
