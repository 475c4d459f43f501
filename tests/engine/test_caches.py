"""One cache helper (issue 25 item 5): every value the engine keeps between calls is in a container made
by ``kept``, a function wrapped by ``memo`` or a store made by ``by_identity`` (values kept by a ruleset's
or a contract's identity), and ``clear_caches()`` empties them all without changing a single answer."""

from __future__ import annotations

import ast
import hashlib
import json
import random
from pathlib import Path

import pytest

from liverpool.bots.registry import make_bot
from liverpool.engine import (
    PRESETS,
    Action,
    GameRecord,
    GameState,
    SeededChance,
    clear_caches,
    legal_actions,
    observe,
    run_game,
)
from liverpool.engine._speed import cache
from liverpool.engine.actions import action_to_dict

ENGINE = Path(__file__).resolve().parents[2] / "liverpool" / "engine"


def _played(preset: str, bot: str, seed: int, clearing: bool) -> str:
    digest = hashlib.sha256()

    def before(state: GameState, action: Action) -> None:
        if clearing:
            clear_caches()
        digest.update(json.dumps([action_to_dict(a) for a in legal_actions(state)]).encode())
        for seat in range(state.seats):
            digest.update(json.dumps(observe(state, seat).to_dict(), sort_keys=True).encode())

    agents = [make_bot(bot) for _ in range(4)]
    state = run_game(PRESETS[preset], agents, random.Random(seed), before=before, chance=SeededChance(f"caches {seed}"))
    digest.update(json.dumps(GameRecord.of(state).to_dict(), sort_keys=True).encode())
    return digest.hexdigest()


@pytest.mark.parametrize(("preset", "bot"), [("liverpool", "medium"), ("contract", "easy"), ("british", "random")])
def test_clearing_every_cache_before_every_action_changes_nothing(preset: str, bot: str) -> None:
    assert _played(preset, bot, 7, clearing=True) == _played(preset, bot, 7, clearing=False)


def test_clear_caches_empties_every_cache() -> None:
    _played("norsk", "easy", 3, clearing=False)
    assert cache.kept_count() > 20
    clear_caches()
    for kept in cache._KEPT:
        if isinstance(kept, dict | list):
            assert not kept
        elif isinstance(kept, cache.ByIdentity):
            assert not kept._held and kept._last is None and kept._last_key is cache._NOTHING
        else:
            assert kept.cache_info().currsize == 0


# Module-level containers that are not caches: emptying them would change what the engine does.
NOT_CACHES = {"BASE_FINDER"}  # rules.ruleset: where the presets leave their finder for a rules file's base


def _unkept(path: Path) -> list[str]:
    """Module-level empty dicts and lists not made by ``kept``, and functions cached another way."""
    found = []
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
        target = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(target, ast.Name) and target.id in NOT_CACHES:
            continue
        if isinstance(value, ast.Dict | ast.List) and not (value.keys if isinstance(value, ast.Dict) else value.elts):
            found.append(f"{path.name}:{node.lineno}: an empty container not made by kept()")
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and inner.func.id == "id":
                found.append(f"{path.name}:{inner.lineno}: a value kept by id() (use by_identity)")
        if isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                name = ast.unparse(decorator)
                if "cache" in name and not name.startswith("memo"):
                    found.append(f"{path.name}:{node.lineno}: @{name} (use @memo)")
    return found


def test_every_cache_of_the_engine_is_kept_by_the_helper() -> None:
    found = [line for path in sorted(ENGINE.rglob("*.py")) if path.parent.name != "_speed" for line in _unkept(path)]
    assert not found, "\n".join(found)


def test_the_check_finds_a_hand_written_cache(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from functools import lru_cache\n_seen: dict[int, int] = {}\n@lru_cache(maxsize=4)\ndef f() -> int:\n    return 1\n"
        "def g(rules: object) -> int:\n    return _seen.get(id(rules), 0)\n"
    )
    assert len(_unkept(module)) == 3


class _Rules:
    """Stands for a ruleset: equal to every other, so that only identity tells two apart."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Rules)

    def __hash__(self) -> int:
        return 0


def test_by_identity_keeps_a_value_for_each_object_not_each_equal_one() -> None:
    made: list[object] = []

    def make(rules: object) -> int:
        made.append(rules)
        return len(made)

    store = cache.ByIdentity(make, at_most=2)
    first, second = _Rules(), _Rules()
    assert store.of(first) == 1
    assert store.of(second) == 2  # equal, but another object: its own value
    assert store.of(first) == 1  # found in the store, not made again
    assert store.of(first) == 1  # the last asked about
    assert made == [first, second]
    third = _Rules()
    assert store.of(third) == 3  # a third object empties the store (at most 2) before it is kept
    assert store.of(second) == 4
    store.clear()
    assert store.of(third) == 5


def test_by_identity_answers_each_new_object_with_its_own_value() -> None:
    store: cache.ByIdentity[object] = cache.ByIdentity(lambda rules: rules, at_most=8)
    for _ in range(200):  # objects come and go (their identities are reused once the store lets go of them)
        rules = _Rules()
        assert store.of(rules) is rules
        assert store.of(rules) is rules
