"""The table: games, seats, recorded events, score pads and calculators."""
