"""Game records: the ruleset, the seats, the first dealer and every action (chance included).

The format is documented in ``docs/record-format.md``. The same game gives the same record, byte
for byte; :func:`replay` rebuilds the state by applying each action through the engine.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from liverpool.engine.actions import Action, action_from_dict, action_to_dict
from liverpool.engine.errors import IllegalAction
from liverpool.engine.game.core import apply, new_game
from liverpool.engine.observe import client_meld, observe
from liverpool.engine.position import Position, PositionError, new_position
from liverpool.engine.rules.parts import RulesetError
from liverpool.engine.rules.ruleset import Ruleset
from liverpool.engine.state import DealResult, GameState

FORMAT = "liverpool-record"
VERSION = 1


class RecordError(ValueError):
    """A record file that cannot be read; ``location`` says where (a JSON path)."""

    def __init__(self, location: str, message: str) -> None:
        super().__init__(f"{location}: {message}")
        self.location = location


class ReplayError(ValueError):
    """An action of a record that the engine refuses; ``index`` is its position in ``actions``."""

    def __init__(self, index: int, action: Action, error: IllegalAction) -> None:
        super().__init__(f"action {index} ({action!r}) is illegal: {error.detail} ({error.situation})")
        self.index = index
        self.action = action
        self.error = error


@dataclass
class GameRecord:
    rules: Ruleset
    seats: list[str]
    first_dealer: int
    actions: list[Action] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)
    position: Position | None = None  # where the game starts, if not at a first deal waiting to be dealt

    @classmethod
    def of(
        cls,
        state: GameState,
        seats: list[str] | None = None,
        meta: dict[str, Any] | None = None,
        position: Position | None = None,
    ) -> GameRecord:
        """The record of ``state``'s game; ``position`` when it started from one (:func:`.new_position`)."""
        names = seats if seats is not None else [f"seat {s}" for s in range(state.seats)]
        return cls(state.rules, names, state.first_dealer, list(state.history), dict(meta or {}), position)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "ruleset": self.rules.to_dict(),
            "seats": [{"name": name} for name in self.seats],
            "first_dealer": self.first_dealer,
            "meta": self.meta,
            **({} if self.position is None else {"position": self.position.to_dict()}),
            "actions": [action_to_dict(a) for a in self.actions],
        }

    def to_json(self) -> str:
        """Canonical JSON: one action per line, so records diff well."""
        data = self.to_dict()
        actions = data.pop("actions")
        head = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        lines = ",\n".join(json.dumps(a, ensure_ascii=False, separators=(",", ":")) for a in actions)
        return head[:-1] + ',"actions":[\n' + lines + "\n]}\n"

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"line {exc.lineno} column {exc.colno}", f"not valid JSON: {exc.msg}") from exc
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("$", "a record is a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError("$.format", f"expected {FORMAT!r}, got {data.get('format')!r}")
        if data.get("version") != VERSION:
            raise RecordError("$.version", f"this engine reads version {VERSION}, got {data.get('version')!r}")
        raw_rules = data.get("ruleset")
        if isinstance(raw_rules, dict) and "base" not in raw_rules:
            # A record holds every field of its ruleset; one written before a field existed played by the
            # engine's behaviour of then, which these values keep. A ruleset written by hand from a preset
            # (``base``) means that preset as it is now.
            raw_rules = {**LEGACY_FIELDS, **raw_rules}
        try:
            rules = Ruleset.from_dict(raw_rules)  # type: ignore[arg-type]  # from_dict checks the type
        except RulesetError as exc:
            raise RecordError(f"$.ruleset.{exc.field}", str(exc)) from exc
        seats = data.get("seats")
        if not isinstance(seats, list) or not all(
            isinstance(s, dict) and isinstance(s.get("name"), str) for s in seats
        ):
            raise RecordError("$.seats", "expected a list of {name}")
        first = data.get("first_dealer")
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < len(seats):
            raise RecordError("$.first_dealer", f"expected a seat number 0..{len(seats) - 1}, got {first!r}")
        raw_actions = data.get("actions")
        if not isinstance(raw_actions, list):
            raise RecordError("$.actions", "expected a list of actions")
        actions: list[Action] = []
        for i, raw in enumerate(raw_actions):
            try:
                actions.append(action_from_dict(raw))
            except ValueError as exc:
                raise RecordError(f"$.actions[{i}]", str(exc)) from exc
        meta = data.get("meta", {})
        if not isinstance(meta, dict):
            raise RecordError("$.meta", "expected an object")
        position = None
        if "position" in data:
            try:
                position = Position.from_dict(data["position"])
            except PositionError as exc:
                raise RecordError(f"$.position.{exc.field}".rstrip("."), str(exc)) from exc
            if position.seats != len(seats):
                raise RecordError("$.position.hands", f"{position.seats} hands for {len(seats)} seats")
            if first != (position.dealer - position.deal) % len(seats):
                raise RecordError(
                    "$.first_dealer",
                    f"deal {position.deal + 1} dealt by seat {position.dealer} makes seat {(position.dealer - position.deal) % len(seats)} the first dealer, not {first}",
                )
        return cls(rules, [s["name"] for s in seats], first, actions, meta, position)


LEGACY_FIELDS: dict[str, Any] = {"upcard_buyable": True, "float_out_unplayable": False}
"""Ruleset fields added after records were first written, with the value that gives the behaviour the engine
had before them (the upcard could be bought; a floater could go out with any card), for a record whose
ruleset lacks them."""


def replay(record: GameRecord, upto: int | None = None) -> GameState:
    """Apply the record's actions (the first ``upto`` of them) to a new game, or to its starting position;
    :class:`ReplayError` on the first illegal one."""
    try:
        if record.position is not None:
            state = new_position(record.rules, record.position)
        else:
            state = new_game(record.rules, len(record.seats), record.first_dealer)
    except PositionError as exc:
        raise RecordError(f"$.position.{exc.field}", str(exc)) from exc
    except ValueError as exc:
        raise RecordError("$.seats", str(exc)) from exc
    for index, action in enumerate(record.actions[:upto]):
        try:
            apply(state, action)
        except IllegalAction as exc:
            raise ReplayError(index, action, exc) from exc
    return state


def replay_views(
    record: GameRecord, describe: Callable[[GameState, Action], str] | None = None
) -> list[dict[str, Any]]:
    """The table at every step of ``record``, for a replay viewer: step 0 before the first action, then one
    step after each action. Each step is ``{"action", "text", "table"}``: the action's dict form (None at
    step 0), ``describe(state_before, action)`` (or the action's repr) and the spectator's view
    (:meth:`.Observation.to_client_dict`) with every seat's ``hands`` and the melds on the table shown (after
    a deal's end too). Raises like :func:`replay`.

    >>> from liverpool.engine.rules.presets import find_preset
    >>> views = replay_views(GameRecord(find_preset('british'), ['a', 'b', 'c'], 0))
    >>> len(views), views[0]['table']['phase'], views[0]['table']['hands']
    (1, 'deal', [])
    """
    state = replay(record, 0)

    def view(action: Action | None, text: str) -> dict[str, Any]:
        table = observe(state, None).to_client_dict()
        table["hands"] = [[str(c) for c in hand] for hand in state.hands]
        table["melds"] = [client_meld(tm) for tm in state.melds]  # (the last deal's stay shown at its end)
        return {"action": None if action is None else action_to_dict(action), "text": text, "table": table}

    views = [view(None, "Before the first deal")]
    for index, action in enumerate(record.actions):
        text = describe(state, action) if describe is not None else repr(action)
        try:
            apply(state, action)
        except IllegalAction as exc:
            raise ReplayError(index, action, exc) from exc
        views.append(view(action, text))
    return views


def snapshot(state: GameState) -> str:
    """The whole state (hidden parts included) as canonical JSON, to compare states byte for byte."""
    data = {
        "deal": state.deal,
        "phase": state.phase.value,
        "dealer": state.dealer,
        "current": state.current,
        "hands": [[str(c) for c in hand] for hand in state.hands],
        "stock": [str(c) for c in state.stock],
        "discard_pile": [str(c) for c in state.discard_pile],
        "melds": [[tm.owner, tm.meld.kind.value, tm.meld.low, [str(c) for c in tm.meld.cards]] for tm in state.melds],
        "down": state.down,
        "buys": state.buys,
        "known": [[str(c) for c in k] for k in state.known],
        "fresh": state.fresh,
        "discarder": state.discarder,
        "may_i_calls": state.may_i_calls,
        "window": state.window,
        "window_answers": sorted(state.window_answers.items()),
        "call_open": state.call_open,
        "taken": None if state.taken is None else str(state.taken),
        "must_place": None if state.must_place is None else str(state.must_place),
        "reclaimed": [str(c) for c in state.reclaimed],
        "down_this_turn": state.down_this_turn,
        "floating": state.floating,
        "turn_end_counts": state.turn_end_counts,
        "reshuffles": state.reshuffles,
        "cut": state.cut,
        "cutter_bonus": state.cutter_bonus,
        "replays": state.replays,
        "results": [_result_snapshot(r) for r in state.results],
        "winners": list(state.winners),
        "turn": state.turn,
    }
    return json.dumps(data, separators=(",", ":"))


def _result_snapshot(result: DealResult) -> list[Any]:
    return [
        result.deal,
        result.went_out,
        list(result.scores),
        result.cut_bonus_seat,
        result.reason.value,
        result.reshuffles,
        [[str(c) for c in hand] for hand in result.hands],
        list(result.points),
        [[tm.owner, tm.meld.kind.value, tm.meld.low, [str(c) for c in tm.meld.cards]] for tm in result.melds],
    ]
