"""cardroom: runs and analyses the card games of a Washington-style card room."""

__version__ = "0.1.0"
