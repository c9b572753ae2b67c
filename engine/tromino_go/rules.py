"""Tromino Go's fixed numbers (rules §1.1, §1.5 to §1.8), shared by the game and its positions."""

LETTERS = "ABC"
"""The letter cycle: the turn index t plays `LETTERS[t % 3]`, in capitals for the round's first player."""
PIECES_TO_MOVE = 30
"""Trominoes on the grid after which players move them instead of placing (points count double)."""
POINTS_TO_WIN = 7
"""The TGpoints total that wins the game."""
STALEMATE_PASSES = 6
"""Passes in a row (a whole A b C a B c cycle) that end the round as a tie."""
