"""Readers of card text (oracle text): cost effects, mana abilities, Vorthos's characters."""
