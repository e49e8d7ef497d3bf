"""The one error family the console and the web turn into a plain sentence.

Every refusal the product makes on purpose (bad input, an illegal move, an unreadable
photo) is a :class:`CompanionError`. Its message is one sentence meant for a person at
the table; anything else that escapes is a bug and is reported as such.
"""


class CompanionError(ValueError):
    """A refusal with a one-sentence message for the user."""


class UsageError(CompanionError):
    """The command line itself is wrong (exit status 2)."""
