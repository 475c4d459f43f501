"""Bots: functions of (observation, legal actions, random source) -> action (or None to decline)."""
