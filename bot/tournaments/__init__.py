"""Tournaments the bot runs unattended: sign-ups, pairings, a table and thread for every game,
results, rounds closed at their deadline, standings, the next round, and the winner crowned.

- `desk`: the commands (`/tournament new`, sign-up, withdraw, check-in, the moderators' pause,
  resume, remove, re-pair and end, standings, list), each answered with a `Reply`;
- `runner`: the durable steps (start, pair, open each board, record results, close a round),
  each committed once, and the tournament's messages sent once;
- `pairing`: the next round by the format's rules (`engine.pairing`); `records`: a stored
  tournament read as the pairing rules' records; `wording`: what a tournament says;
  `standings`: the standings message's picture.
"""
