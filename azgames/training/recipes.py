"""The recipes of the networks the suite trains from scratch, as ``train``
flags: the one place each is written (docs/training.md says why).
:func:`~.flags.config_from_flags` turns one into a trainer's config."""

#: Connect Four's shipped ``az`` network: a conv trunk, and random openings
#: so that self-play does not collapse onto a few lines.
CONNECT_FOUR = ("--conv", "32x2", "--random-opening", "8")

__all__ = ["CONNECT_FOUR"]
