"""manacalc: Magic: The Gathering spell costs and mana, by the Comprehensive Rules, over HTTP."""

__version__ = "1.0.0"
