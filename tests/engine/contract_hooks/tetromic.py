"""Tetromic's contract hooks: random games are long (a race to level 10 by random packing ends
when the boards lock up), so fewer of them."""

PLAYOUTS = 30

OPTION_VALUES = {"width": [4, 6], "height": [5, 10], "target_level": [2, 4, 10]}
"""Small boards and low targets: games that end by a win or by every board being out."""
