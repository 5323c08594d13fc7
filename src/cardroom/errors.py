"""Errors a user may cause. The CLI and the server turn these into one-line messages."""


class CardroomError(Exception):
    """Anything a user did wrong: the message is shown to them as is."""


class CardParseError(CardroomError, ValueError):
    """A card string that names no card."""


class RulesError(CardroomError, ValueError):
    """A house-rules file or setting that is malformed or out of its allowed range."""


class WagerError(CardroomError):
    """A wager refused by a rule; the message names the rule."""


class IllegalActionError(CardroomError):
    """An action the game state does not allow now."""


class ShoeError(CardroomError):
    """A shoe that cannot do what was asked (empty, bad commitment, bad spec)."""
