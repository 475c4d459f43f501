"""What clients may send, validated with pydantic: lobby request bodies and websocket messages.

>>> read_client_message('{"type": "ping"}')
Ping(type='ping')
>>> read_client_message('{"type": "action", "action": {"type": "draw_stock"}}').action
{'type': 'draw_stock'}
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

from liverpool.engine import field_registry

from .talk import MAX_CHAT_CHARS, ReactionId, printable

MAX_MESSAGE_BYTES = 64 * 1024
# A whole game's record is larger than any message: a 3-seat `british-9` game between random bots is
# 145 KB, a 4-seat game played at the browser table 66 KB. Only the record upload (POST /api/replay) may
# send this much.
MAX_RECORD_BYTES = 1024 * 1024
MAX_DEPTH = 32
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")
MIN_SEATS = 3


def _most_players() -> int:
    """The engine's most players at a table: its ``max_players`` field's maximum."""
    maximum = next(i.maximum for i in field_registry() if i.name == "max_players")
    if maximum is None:
        raise RuntimeError("the engine's max_players field has no maximum")
    return maximum


MAX_SEATS = _most_players()

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]
RulesetName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64)]
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class TableOptions(Strict):
    """How a table is run (stored with it)."""

    away_timeout_s: int = Field(
        60, ge=0, le=86_400, description="A player away this long is played by a bot; 0 = never."
    )
    bot_pace_ms: int = Field(800, ge=0, le=60_000, description="Pause before each bot move; 0 = full speed.")
    buy_timeout_s: int = Field(
        20, ge=1, le=600, description="A player in a buy window who has not answered by then passes."
    )
    next_deal_timeout_s: int = Field(
        30,
        ge=0,
        le=600,
        description="A deal's summary stays up until everyone connected presses Next deal or this long; 0 = no pause.",
    )
    turn_limit_s: int = Field(
        0, ge=0, le=3_600, description="A turn not finished within this is played by the away bot; 0 = no limit."
    )
    hints: bool = Field(True, description="Players may ask the coach for a hint; false for serious games.")
    tutorial: bool = Field(False, description="The page explains each step (set by POST /api/tutorial).")
    spectators_talk: bool = Field(True, description="Spectators may write in the table talk (they always read it).")


class CreateTable(TableOptions):
    preset: str = Field("liverpool", max_length=64)
    rules: dict[str, Any] | None = Field(None, description="Ruleset fields that change the preset (house rules).")
    seats: int = Field(4, ge=MIN_SEATS, le=MAX_SEATS)
    bots: dict[Seat, Annotated[str, Field(max_length=32)]] = Field(
        default_factory=dict, description="Seat -> bot difficulty."
    )
    styles: dict[Seat, Annotated[str, Field(max_length=16)]] = Field(
        default_factory=dict,
        description="Seat -> the style of its bot: cautious, balanced (the default) or aggressive (docs/bots.md).",
    )

    def options(self) -> TableOptions:
        return TableOptions.model_validate({name: getattr(self, name) for name in TableOptions.model_fields})


class Join(Strict):
    seat: Seat
    name: Name


CardText = Annotated[str, StringConstraints(min_length=2, max_length=8)]


class DraftGoDown(Strict):
    """A going-down being built: the cards put to each meld of the contract, and which way each run lies."""

    slots: Annotated[list[Annotated[list[CardText], Field(max_length=60)]], Field(max_length=8)]
    choices: Annotated[list[Annotated[int, Field(ge=0, le=20)]], Field(max_length=8)] = []


class SaveRuleset(Strict):
    name: RulesetName
    rules: dict[str, Any]


ChatText = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_CHAT_CHARS), AfterValidator(printable)
]
ActionId = Annotated[str, StringConstraints(min_length=1, max_length=64)]


class ActionMessage(Strict):
    """An action, with the ``seq`` of the state it was chosen in and a client-chosen ``id`` (both optional
    for older clients: without ``seq`` the action is played against whatever the state is then, without
    ``id`` it is not acknowledged and a resent copy is a new action)."""

    type: Literal["action"]
    action: dict[str, Any]
    seq: Annotated[int, Field(ge=0, strict=True)] | None = None
    id: ActionId | None = None


class Ping(Strict):
    type: Literal["ping"]


class ResyncAsk(Strict):
    """A client asks for its whole ``state`` again (a ``delta`` whose ``base`` is not the state it holds)."""

    type: Literal["resync"]


class NextDeal(Strict):
    """A seat has read the summary of the deal that just ended and is ready for the next one."""

    type: Literal["next_deal"]


class HintAsk(Strict):
    """A seat asks the coach for its best option now (``docs/coach.md``, At the table)."""

    type: Literal["hint"]


class UndoAsk(Strict):
    """A seat asks to take back its last decision and the bots' moves after it."""

    type: Literal["undo"]


class Chat(Strict):
    """A line of table talk (see :mod:`.talk`): never part of the game."""

    type: Literal["chat"]
    text: ChatText


class React(Strict):
    """A quick reaction, one of the server's :data:`~.talk.REACTIONS` by its id."""

    type: Literal["react"]
    reaction: ReactionId


AnyClientMessage = ActionMessage | Ping | ResyncAsk | NextDeal | HintAsk | UndoAsk | Chat | React
ClientMessage = Annotated[AnyClientMessage, Field(discriminator="type")]
_client_message: TypeAdapter[AnyClientMessage] = TypeAdapter(ClientMessage)


FORMS: dict[str, type[BaseModel]] = {
    "create_table": CreateTable,
    "join": Join,
    "save_ruleset": SaveRuleset,
    "chat": Chat,
}
"""What the browser's forms send, by form: their limits are the web pages' (``GET /api/limits``)."""
_BOUNDS = ("minimum", "maximum", "exclusiveMaximum", "minLength", "maxLength")


def form_limits() -> dict[str, dict[str, dict[str, int]]]:
    """Each bounded field of each of :data:`FORMS`: its bounds as the model's JSON schema states them.

    >>> form_limits()["join"]["name"]
    {'minLength': 1, 'maxLength': 32}
    """
    out: dict[str, dict[str, dict[str, int]]] = {}
    for form, model in FORMS.items():
        fields = model.model_json_schema()["properties"]
        out[form] = {
            name: {key: schema[key] for key in _BOUNDS if key in schema}
            for name, schema in fields.items()
            if any(key in schema for key in _BOUNDS)
        }
    return out


def read_client_message(text: str | bytes) -> AnyClientMessage:
    """Parse one websocket message; :class:`pydantic.ValidationError` says what is wrong."""
    return _client_message.validate_json(text)


def json_depth_over(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` nests lists and objects more than ``limit`` deep (strings are skipped;
    malformed text is left for the parser to refuse).

    >>> json_depth_over('{"a": [[1]], "b": "[[[[["}', 3), json_depth_over('[[[[1]]]]', 3)
    (False, True)
    """
    raw = text.decode(errors="replace") if isinstance(text, bytes) else text
    depth = 0
    for bracket in _BRACKETS.findall(_STRINGS.sub("", raw)):
        depth = depth + 1 if bracket in "[{" else depth - 1
        if depth > limit:
            return True
    return False
