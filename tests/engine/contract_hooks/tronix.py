"""Tronix's contract hooks. Random games run all 48 placements and then God Mode until the
quiet cap, each God Mode position offering thousands of actions: fewer playouts, and the
round-trip test tries an even spread of each position's actions. With the default CX deck no
card differs from another, so the hands hide nothing but their kinds (mixed decks)."""

PLAYOUTS = 10
ROUND_TRIP_GAMES = 4
ACTIONS_CHECKED = 60
OPTION_VALUES = {"deck_size": [12, 24, 48], "quiet_limit": [5, 40], "repetitions": [2, 3]}
POSITION_GAMES = 4
