"""Tournament pairing systems and standings: pure, deterministic, no I/O.

Players are known by their **pairing numbers** (1, 2, … in the order of the starting list, FIDE's
"pairing numbers"). A two-player game's first seat plays the role of chess's white.

- `records`: a round's boards and results, and the points they are worth;
- `round_robin`: FIDE's Berger tables (C.05, Annex 1), single and double;
- `pods`: Swiss rounds of multi-player tables grouped by score;
- `tiebreaks`: Buchholz, Buchholz cut-1, Sonneborn–Berger and direct encounter (FIDE C.07);
- `trf`: the FIDE Tournament Report File an arbiter's tools read.
"""
