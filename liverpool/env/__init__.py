"""Reinforcement-learning environments (``pip install liverpool[rl]``): :mod:`liverpool.env.liverpool_v0`, a
PettingZoo AEC environment, and :mod:`liverpool.env.single`, a Gymnasium single-agent wrapper. See docs/env.md."""
