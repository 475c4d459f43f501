"""Reinforcement-learning environments (``pip install liverpool[rl]``): :mod:`liverpool.env.liverpool_v0`, a
PettingZoo AEC environment, and :mod:`liverpool.env.single`, a Gymnasium single-agent wrapper, over the action
encoding and observation array of :mod:`liverpool.env.encoding`; :mod:`liverpool.env.policy`, a linear policy
over them and a bot that plays it (trained by ``examples/train.py``). See docs/env.md and docs/rl.md."""
