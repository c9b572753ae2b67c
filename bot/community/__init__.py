"""What carries over between games: ratings, leaderboards, a player's games and turn notifications."""
