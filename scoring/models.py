"""Games, seats and the append-only events recorded at the table (see scoring/recording.py)."""
