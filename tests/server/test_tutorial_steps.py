"""The guided first game's steps (issue 30, item 6), walked through the engine from the tutorial's position:
each step the newcomer meets (drawing, the contract and going down, the joker swap, laying off, the discard,
and buying with its penalty card when a bot's discard is let go) is explained and names a control of the
table page to highlight. ``test_server_tutorial.py`` walks the same deal at a real server."""

from __future__ import annotations

from liverpool.engine import (
    Action,
    Discard,
    DrawDiscard,
    DrawStock,
    GameState,
    Pass,
    apply,
    legal_actions,
    new_position,
    observe,
)
from liverpool.server import tutorial


def _step(state: GameState) -> dict[str, object]:
    return tutorial.step(observe(state, 0), legal_actions(state, 0))


def _first(state: GameState, seat: int, kind: type[Action]) -> Action:
    return next(a for a in legal_actions(state, seat) if isinstance(a, kind))


def test_every_step_is_explained_with_its_control_highlighted() -> None:
    """RULES.md §3 buying: after the next player declines the discard, another may buy it with 1 penalty card
    (001a); the newcomer, down already, is offered the bot's discard and the step says so."""
    rules = tutorial.rules()
    state = new_position(rules, tutorial.position(rules))
    seen: list[tuple[object, object]] = []
    while state.current == 0 and not state.is_over:
        step = _step(state)
        seen.append((step["key"], step["highlight"]))
        action = legal_actions(state, 0)[0] if step["key"] != "draw" else _first(state, 0, DrawDiscard)
        if step["key"] == "discard":
            action = _first(state, 0, Discard)
        apply(state, action)
    assert [k for k, _ in dict.fromkeys(seen)] == ["draw", "go_down", "swap", "lay_off", "discard"], seen
    assert dict(seen) == {
        "draw": "take-discard",
        "go_down": "godown-option-0",
        "swap": "swap-option-0",
        "lay_off": "layoff-hint",
        "discard": "discard-button",
    }
    # The bots draw from the stock and discard; the newcomer is offered a discard the next player let go.
    for _ in range(40):
        if any(a.seat == 0 for a in legal_actions(state) if type(a).__name__ == "Buy"):
            break
        legal = legal_actions(state)
        mover = next((a for a in legal if isinstance(a, DrawStock | Pass) and a.seat != 0), None)
        apply(state, mover if mover is not None else next(a for a in legal if isinstance(a, Discard)))
    step = _step(state)
    assert step["key"] == "buy" and step["highlight"] == "buy", step
    assert step["params"]["penalty"] == 1 and "1 penalty card(s)" in str(step["text"])
    assert step["params"]["card"] == observe(state, 0).to_client_dict()["discard_pile"][-1]
