"""Casting a spell (CR 601.2): the 601.2f cost engine, its effects and ways to cast, party, Mental Magic."""
