"""Mana abilities (CR 605), what a board could produce (106.7) and the payment of costs (601.2g-h)."""
