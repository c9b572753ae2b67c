"""Tournament pairing systems and standings: pure, deterministic, no I/O.

Players are known by their **pairing numbers** (1, 2, … in the order of the starting list, FIDE's
"pairing numbers"). A two-player game's first seat plays the role of chess's white.

- `records`: a round's boards and results, and the points they are worth;
- `round_robin`: FIDE's Berger tables (C.05, Annex 1), single and double;
- `pods`: Swiss rounds of multi-player tables grouped by score;
- `tiebreaks`: Buchholz, Buchholz cut-1, Sonneborn–Berger and direct encounter (FIDE C.07);
- `trf`: the FIDE Tournament Report File an arbiter's tools read (written, and read back);
- `dutch`: Swiss rounds of two-player games by the FIDE Dutch system (C.04.3, 2025 rules), with
  `dutch_history` (scores, colours, floats, bye eligibility from the earlier rounds),
  `dutch_criteria` (the pairing criteria as costs), `dutch_bracket` and `dutch_guided` (a
  bracket's candidates in the rules' order), `dutch_tail` (what the lower brackets make of a
  bracket's floaters), `dutch_colours` (colour allocation);
- `matching`, `weighted_matching`: maximum-cardinality and maximum-weight matching in general
  graphs (Edmonds' blossom algorithm), which the Dutch system pairs with.
"""
