"""The rules' nouns: mana symbols and costs, mana, type lines, cards and faces, boards, name folding."""
