"""Rulesets: every house rule of RULES.md §3 as a field of one frozen value, and the presets of §4.

- :mod:`.parts`: what a ruleset is made of: the options' enums, the melds and deals of contracts, decks;
- :mod:`.fields`: the field registry: each option's kind, choices, group, doc and RULES.md row, which the
  codec, validation, ``liverpool rules show``, ``docs/rulesets.md`` and the browser's form all read;
- :mod:`.ruleset`: :class:`Ruleset` itself, its codec (JSON, TOML) and validation;
- :mod:`.presets`: the named rulesets (``PRESETS``, ``find_preset`` by name or alias);
- :mod:`.text`: a ruleset in words: each preset's summary and a table's rules, for the lobby and the panel.
"""

from liverpool.engine.rules.parts import DealRule, DeckRule, MeldKind, MeldRule, RulesetError, RulesetProblem
from liverpool.engine.rules.presets import ALIASES, DEFAULT_PRESET, PRESETS, UnknownPreset, find_preset
from liverpool.engine.rules.ruleset import Ruleset

__all__ = [
    "ALIASES",
    "DEFAULT_PRESET",
    "PRESETS",
    "DealRule",
    "DeckRule",
    "MeldKind",
    "MeldRule",
    "Ruleset",
    "RulesetError",
    "RulesetProblem",
    "UnknownPreset",
    "find_preset",
]
