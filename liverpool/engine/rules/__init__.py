"""Rulesets: every house rule of RULES.md §3 as a field of one frozen value, and the presets of §4.

- :mod:`.ruleset`: :class:`Ruleset`, its options' enums, the contracts' parts and validation;
- :mod:`.presets`: the named rulesets (``PRESETS``, ``find_preset`` by name or alias).
"""

from liverpool.engine.rules.presets import ALIASES, DEFAULT_PRESET, PRESETS, UnknownPreset, find_preset
from liverpool.engine.rules.ruleset import DealRule, DeckRule, MeldKind, MeldRule, Ruleset, RulesetError

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
    "UnknownPreset",
    "find_preset",
]
