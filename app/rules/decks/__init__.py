"""Decks: pasted decklists, deck statistics, legality (100.2a, 903.5) and Karsten's castability model."""
