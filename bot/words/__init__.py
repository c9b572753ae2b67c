"""What the referee says: narration of moves and the referee's own sentences."""
