"""The one error a spec problem raises: a single line a person can act on."""


class SpecError(ValueError):
    """A spec cannot be used; the message names the problem in one line."""
