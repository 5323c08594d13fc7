"""The regulator's math dossier: every wager's figures, volatility, claims and game-specific
sections, as one self-contained HTML file with SVG charts and the same numbers in JSON."""
