"""Tetromic's contract hooks: random games are long (a race to level 10 by random packing ends
when the boards lock up), so fewer of them."""

PLAYOUTS = 30
