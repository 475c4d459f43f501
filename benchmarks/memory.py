"""Memory: bytes held by one game state, one observation and one live server table.

Sizes are *deep*: ``sys.getsizeof`` summed over every object reachable from the one measured, each
counted once. Objects shared by every game are left out and reported apart: the ruleset (one per preset),
classes, modules, functions, enum members, ``None`` and booleans. Cards are counted where they are held
(each physical card is one small ``int`` object). Interned small ints are counted too, so the figures
err on the high side.
"""

from __future__ import annotations

import enum
import gc
import json
import random
import sys
import types
from typing import Any

from liverpool.bots.registry import make_bot
from liverpool.engine import PRESETS, Action, GameState, Ruleset, observe, run_game

_SHARED = (type, types.ModuleType, types.BuiltinFunctionType, types.CodeType, enum.Enum, Ruleset)


def _referents(obj: object) -> list[object]:
    """What ``obj`` holds. A function holds only its closure and defaults (never its module's globals);
    a bound method its object."""
    if isinstance(obj, types.FunctionType):
        cells = []
        for cell in obj.__closure__ or ():
            try:
                cells.append(cell.cell_contents)
            except ValueError:
                continue
        return [*cells, obj.__defaults__, obj.__kwdefaults__]
    if isinstance(obj, types.MethodType):
        return [obj.__self__]
    return list(gc.get_referents(obj))


def deep_size(root: object, *, skip: tuple[type, ...] = _SHARED) -> int:
    """Bytes of ``root`` and everything it reaches, each object once, less what every game shares
    (``skip``, and module-level functions, which hold no state of their own)."""
    seen: set[int] = set()
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or obj is None or isinstance(obj, (bool, *skip)):
            continue
        seen.add(id(obj))
        if isinstance(obj, types.FunctionType) and obj.__closure__ is None:
            continue
        total += sys.getsizeof(obj)
        stack.extend(_referents(obj))
    return total


def mid_game_state(preset: str, seats: int, bot: str, seed: int) -> GameState:
    """The state halfway (by actions) through a whole seeded game."""
    rules = PRESETS[preset]
    full = run_game(rules, [make_bot(bot) for _ in range(seats)], random.Random(seed))
    half = len(full.history) // 2
    caught: list[GameState] = []

    def catch(state: GameState, _action: Action) -> None:
        if len(state.history) == half and not caught:
            caught.append(state.clone())

    run_game(rules, [make_bot(bot) for _ in range(seats)], random.Random(seed), before=catch)
    return caught[0]


def measure_state(preset: str, seats: int, bot: str, seed: int) -> dict[str, Any]:
    state = mid_game_state(preset, seats, bot, seed)
    history = state.history
    state.history = []
    without_history = deep_size(state)
    state.history = history
    whole = deep_size(state)
    view = observe(state, state.current)
    public = observe(state, None)
    return {
        "preset": preset,
        "seats": seats,
        "bot": bot,
        "deal": state.deal + 1,
        "actions_so_far": len(history),
        "state_bytes": whole,
        "state_bytes_without_history": without_history,
        "history_bytes_per_action": (whole - without_history) / max(1, len(history)),
        "observation_bytes": deep_size(view),
        "public_observation_bytes": deep_size(public),
        "observation_json_bytes": len(json.dumps(view.to_dict(), separators=(",", ":"))),
        "ruleset_bytes_shared": deep_size(state.rules, skip=_SHARED[:-1]),
    }


def measure_server_table(preset: str, seats: int, bot: str, seed: int) -> dict[str, Any]:
    """The deep size of a live ``liverpool.server`` table actor, holding the same half game.

    The table is stored (its seats bots, its actions the half game) and loaded through the server's
    ``Hub``, as a request or a restart loads it; it is measured before its task first runs. Left out as
    shared by every table: the storage (database engine and pool), the event loop and the hub; the
    table's own ruleset, which the actor builds from the stored dict, is counted.
    """
    try:
        from liverpool.server.hub import Hub
        from liverpool.server.schemas import TableOptions
        from liverpool.server.storage import PLAYING, NewSeat, Storage
    except ImportError as exc:
        return {"table_bytes": None, "note": f"n/a: no liverpool.server table actor ({exc})"}
    import asyncio
    import tempfile

    from liverpool.engine import action_to_dict

    state = mid_game_state(preset, seats, bot, seed)
    actions = [action_to_dict(a) for a in state.history]
    with tempfile.TemporaryDirectory(prefix="liverpool-bench-") as tmp:
        storage = Storage(f"sqlite:///{tmp}/tables.db")
        storage.migrate()
        options = TableOptions().model_dump()
        info = storage.create_table(state.rules.to_dict(), state.first_dealer, options, [NewSeat(bot=bot)] * seats)
        for seq, action in enumerate(actions):
            storage.append(info.id, seq, action)
        storage.set_status(info.id, PLAYING)

        async def measure() -> int:
            hub = Hub(storage)
            actor = await hub.actor(info.id)
            assert actor is not None
            size = deep_size(actor, skip=(*_SHARED[:-1], Storage, Hub, asyncio.AbstractEventLoop))
            await hub.close()
            return size

        size = asyncio.run(measure())
        storage.close()
    return {"table_bytes": size, "actions_so_far": len(actions), "note": None}
