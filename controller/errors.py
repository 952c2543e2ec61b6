"""Errors of the controller package.

Every error meant for a user carries ``exit_code``: 2 for unusable input (malformed files, unknown
names, bad options), 1 for a well-formed game that breaks the rules.
"""

from __future__ import annotations


class ControllerError(Exception):
    """Root of every error raised by ``controller``."""

    exit_code = 2


class RulesError(ControllerError, ValueError):
    """Unusable rules input: an unknown preset or option, a bad value, a bad tile string."""


class UnknownPresetError(RulesError, LookupError):
    """No rule preset has that name."""


class TileError(RulesError):
    """A tile string that is not a tile, or a tile outside the set in play."""


class RecordError(ControllerError, ValueError):
    """A game record that cannot be used: malformed JSON, missing fields, wrong types."""


class IllegalMoveError(ControllerError, ValueError):
    """A move that breaks the rules in the state it was made in."""

    exit_code = 1


class IllegalRecordError(IllegalMoveError):
    """A game record with an illegal move; the message names the hand, the move and the reason."""


class ScoringError(ControllerError, ValueError):
    """A finished hand that cannot be scored from what is known (e.g. no tiles left shown)."""
