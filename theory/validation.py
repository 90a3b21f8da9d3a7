"""The one error type of bad input to any public function or configuration of ``theory/`` and
``numerics/`` (as hypothesis keeps ``InvalidArgument``): the message names the argument and its
value and says what is wrong.  It lives here because theory knows nothing of numerics;
``numerics.validation`` holds the checks that raise it."""


class InvalidArgument(ValueError, TypeError):
    """Bad input: the message names the argument and its value, and says what is wrong.  A
    ``ValueError`` and a ``TypeError`` both, so a caller that catches either still does."""
