"""The lobby over HTTP (``/api/...``): presets, tables, invites and seats, rematches, records, saved rules.

Every answer is JSON; a refusal is ``{"reason", "message"}`` (and ``field`` for a bad ruleset field)
with a 4xx status, and nothing is changed. See ``docs/protocol.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import partial
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Depends, Query, Request, Response

from liverpool.bots.registry import DEFAULT_STYLE, STYLES, UnknownStyle, bot_names, find_style, styles_of
from liverpool.cli.narrate import BEFORE_FIRST_DEAL, describe_words
from liverpool.engine import (
    ALIASES,
    PRESETS,
    SUMMARY_FIELDS,
    Action,
    CardNotationError,
    GameRecord,
    GameState,
    Group,
    RecordError,
    ReplayError,
    Ruleset,
    RulesetError,
    UnknownPreset,
    action_from_dict,
    apply,
    choose_first_dealer,
    draft_go_down,
    field_docs,
    field_registry,
    find_preset,
    live_rng,
    new_game,
    note_keys,
    parse_cards,
    replay,
    replay_views,
    rules_in_fields,
    rules_in_words,
    summary,
)
from liverpool.phrases import Phrase, english

from . import tutorial
from .actor import TableActor, display_name
from .cluster import Table
from .coaching import Coaching
from .errors import Refused
from .hub import Hub
from .loading import table_position
from .schemas import CreateTable, DraftGoDown, Join, SaveRuleset, TableOptions, form_limits
from .storage import OVER, Conflict, NewSeat, Storage, TableInfo, rematch_token

MAX_TOKENS = 50


@dataclass
class Server:
    storage: Storage
    hub: Hub
    coaching: Coaching | None = None


def _server(request: Request) -> Server:
    server: Server = request.app.state.server
    return server


Srv = Annotated[Server, Depends(_server)]
router = APIRouter(prefix="/api")


def seat_url(token: str) -> str:
    return f"/play/{token}"


def display_names(info: TableInfo) -> list[str | None]:
    """Each seat's name (a bot's is made up), or None for a free seat."""
    return [None if s.free else display_name(s.seat, s.name, s.bot) for s in info.seats]


async def _actor(server: Server, table_id: str) -> Table:
    actor = await server.hub.actor(table_id)
    if actor is None:
        raise Refused(404, "no_such_table", f"there is no table {table_id!r}")
    return actor


# -- presets and rulesets ---------------------------------------------------------------------------


@router.get("/presets")
async def presets() -> dict[str, Any]:
    """Every preset with its full rules and its summary in words (the engine's ``rulestext.summary``), each
    ruleset field's meaning, and the bot difficulties."""
    aliases: dict[str, list[str]] = {}
    for alias, name in ALIASES.items():
        aliases.setdefault(name, []).append(alias)
    return {
        "presets": [
            {
                "name": r.name,
                "title": r.title,
                "aliases": aliases.get(r.name, []),
                "rules": r.to_dict(),
                "note_keys": note_keys(r),
                "summary": summary(r),
            }
            for r in PRESETS.values()
        ],
        "fields": field_docs(),
        "summary_fields": list(SUMMARY_FIELDS),
        "bots": bot_names(),
        "bot_styles": {name: list(styles_of(name)) for name in bot_names()},
        "styles": list(STYLES),
        "default_style": DEFAULT_STYLE.value,
    }


@router.get("/rules/fields")
async def rules_fields() -> dict[str, Any]:
    """The engine's field registry: each ruleset field's name, kind, choices, group, doc, rules-matrix row and
    minimum, in order. The house-rules form is built from it."""
    return {"fields": [info.to_dict() for info in field_registry()]}


@router.get("/limits")
async def limits() -> dict[str, Any]:
    """The bounds of what each form sends (the request schemas' minimum, maximum, minLength, maxLength by form
    and field): the pages put them on their inputs, so a form and the server hold one limit."""
    return form_limits()


def house_rules(preset: str, overrides: dict[str, Any] | None) -> Ruleset:
    """A preset, changed by ``overrides`` (which may name another preset as ``base``)."""
    try:
        base = find_preset(preset)
    except UnknownPreset as exc:
        raise Refused(422, "unknown_preset", str(exc), "preset") from exc
    if not overrides:
        return base
    try:
        return Ruleset.from_dict(overrides) if "base" in overrides else Ruleset.from_dict(overrides, base=base)
    except RulesetError as exc:
        raise Refused(422, "bad_rules", str(exc), f"rules.{exc.field}", rules_details(exc)) from exc


def rules_details(exc: RulesetError) -> dict[str, int | str]:
    """What a page needs to say a refused house rule in its language: the ``rule`` (the field, without an
    index or a key within it), what is wrong with it (``problem``, a ``RulesetProblem``) and its bound."""
    details: dict[str, int | str] = {"rule": re.split(r"[.\[]", exc.field, maxsplit=1)[0]}
    if exc.problem is not None:
        details["problem"] = exc.problem.value
    if exc.limit is not None:
        details["limit"] = exc.limit
    return details


@router.get("/rulesets")
async def rulesets(server: Srv) -> dict[str, Any]:
    saved = await to_thread.run_sync(server.storage.rulesets)
    return {
        "rulesets": [{"name": name, "rules": rules, "created": created.isoformat()} for name, rules, created in saved]
    }


@router.post("/rulesets", status_code=201)
async def save_ruleset(body: SaveRuleset, server: Srv) -> dict[str, Any]:
    try:
        rules = Ruleset.from_dict(body.rules)
    except RulesetError as exc:
        raise Refused(422, "bad_rules", str(exc), f"rules.{exc.field}", rules_details(exc)) from exc
    try:
        await to_thread.run_sync(server.storage.save_ruleset, body.name, rules.to_dict())
    except Conflict as exc:
        raise Refused(409, exc.reason, str(exc), "name") from exc
    return {"name": body.name, "rules": rules.to_dict()}


# -- tables -----------------------------------------------------------------------------------------


@router.post("/tables", status_code=201)
async def create_table(body: CreateTable, server: Srv) -> dict[str, Any]:
    rules = house_rules(body.preset, body.rules)
    try:
        new_game(rules, body.seats)
    except ValueError as exc:
        raise Refused(422, "bad_seats", str(exc), "seats") from exc
    known = bot_names()
    bots: dict[int, str] = {}
    for seat, name in body.bots.items():
        key = name.strip().lower()
        if seat >= body.seats:
            raise Refused(
                422,
                "no_such_seat",
                f"a bot for seat {seat} at a table of {body.seats} seats (0 to {body.seats - 1})",
                "bots",
            )
        if key not in known:
            raise Refused(422, "unknown_bot", f"no bot named {name!r}; bots: {', '.join(known)}", "bots", {"bot": name})
        bots[seat] = key
    styles = _styles(body.styles, bots)
    dealer = choose_first_dealer(rules, body.seats, live_rng())
    seats = [NewSeat(bot=bots.get(s), style=styles.get(s)) for s in range(body.seats)]
    info = await to_thread.run_sync(
        server.storage.create_table, rules.to_dict(), dealer, body.options().model_dump(), seats
    )
    if len(bots) == body.seats:
        await _actor(server, info.id)
    return {
        "table_id": info.id,
        "invite": info.invite,
        "invite_url": f"/join/{info.invite}",
        "spectator": info.spectator,
        "spectator_url": f"/watch/{info.spectator}",
    }


def _styles(asked: dict[int, str], bots: dict[int, str]) -> dict[int, str]:
    """The style of each bot seat that names one (``balanced`` is stored as no style: today's play)."""
    styles: dict[int, str] = {}
    for seat, style in asked.items():
        if seat not in bots:
            raise Refused(422, "style_without_bot", f"a style for seat {seat}, which has no bot", "styles")
        try:
            found = find_style(bots[seat], style)
        except UnknownStyle as exc:
            raise Refused(422, "unknown_style", f"seat {seat}: {exc}", "styles") from exc
        if found is not DEFAULT_STYLE:
            styles[seat] = found.value
    return styles


def seat_bots(info: TableInfo) -> list[dict[str, Any]]:
    """Each bot seat's level, style and the version it plays (null until the game starts, and for tables
    started before versions were stored)."""
    return [
        {"seat": s.seat, "bot": s.bot, "style": s.style or DEFAULT_STYLE.value, "version": s.version}
        for s in info.seats
        if s.bot is not None
    ]


@router.get("/tables/{table_id}")
async def table(table_id: str, server: Srv) -> dict[str, Any]:
    """A table's public facts: status, ruleset, seats (names and bots) and each bot seat's level, style and
    version (``bots``)."""
    info = await to_thread.run_sync(server.storage.table, table_id)
    if info is None:
        raise Refused(404, "no_such_table", f"there is no table {table_id!r}")
    names = display_names(info)
    return {
        "table_id": info.id,
        "status": info.status,
        "ruleset": info.ruleset.get("name"),
        "created": info.created.isoformat(),
        "seats": [{"seat": s.seat, "name": names[s.seat], "bot": s.bot, "free": s.free} for s in info.seats],
        "bots": seat_bots(info),
    }


@router.post("/tutorial", status_code=201)
async def create_tutorial(server: Srv) -> dict[str, Any]:
    """A guided first game (:mod:`.tutorial`): a table set up from the tutorial's position, the newcomer at
    seat 0 against two bots; answers with the seat's link."""
    rules = tutorial.rules()
    options = TableOptions.model_validate({"tutorial": True, "bot_pace_ms": tutorial.PACE_MS, "away_timeout_s": 0})
    seats = [NewSeat(), NewSeat(bot=tutorial.BOT), NewSeat(bot=tutorial.BOT)]
    info = await to_thread.run_sync(
        partial(
            server.storage.create_table,
            rules.to_dict(),
            0,
            options.model_dump(),
            seats,
            position=tutorial.position(rules).to_dict(),
        )
    )
    token = await (await _actor(server, info.id)).join(0, tutorial.NAME)
    return {"seat_token": token, "seat_url": seat_url(token), "table_id": info.id, "seat": 0}


@router.get("/invite/{invite}")
async def invite(invite: str, server: Srv) -> dict[str, Any]:
    info = await to_thread.run_sync(server.storage.table_by_invite, invite)
    if info is None:
        raise Refused(404, "no_such_invite", "this invitation does not exist")
    names = display_names(info)
    return {
        "table_id": info.id,
        "ruleset": info.ruleset,
        "options": info.options,
        "seats": [{"seat": s.seat, "name": names[s.seat], "bot": s.bot, "free": s.free} for s in info.seats],
        "bots": seat_bots(info),
        "status": info.status,
        "spectator_url": f"/watch/{info.spectator}",
    }


@router.post("/invite/{invite}/join")
async def join(invite: str, body: Join, server: Srv) -> dict[str, Any]:
    info = await to_thread.run_sync(server.storage.table_by_invite, invite)
    if info is None:
        raise Refused(404, "no_such_invite", "this invitation does not exist")
    token = await (await _actor(server, info.id)).join(body.seat, body.name)
    return {"seat_token": token, "seat_url": seat_url(token), "table_id": info.id, "seat": body.seat}


@router.get("/my-tables")
async def my_tables(server: Srv, tokens: Annotated[str, Query(max_length=MAX_TOKENS * 65)] = "") -> dict[str, Any]:
    wanted = [t for t in tokens.split(",") if t][:MAX_TOKENS]
    found = await to_thread.run_sync(server.storage.seats_by_tokens, wanted)
    tables = []
    for info, seat, token in found:
        rules = info.ruleset
        tables.append(
            {
                "table_id": info.id,
                "seat": seat,
                "seat_token": token,
                "seat_url": seat_url(token),
                "status": info.status,
                "ruleset": rules.get("name"),
                "title": rules.get("title"),
                "names": display_names(info),
                "created": info.created.isoformat(),
                "rematch": info.rematch_id is not None,
            }
        )
    return {"tables": tables}


@router.post("/seat/{token}/rematch")
async def rematch(token: str, server: Srv) -> dict[str, Any]:
    found = await to_thread.run_sync(server.storage.seat_by_token, token)
    if found is None:
        raise Refused(404, "no_such_seat", "this seat link does not exist")
    info, seat = found
    new_id = await (await _actor(server, info.id)).rematch()
    new_token = rematch_token(token, new_id)
    await (await _actor(server, new_id)).claim_reserved(seat, new_token)
    return {"seat_token": new_token, "seat_url": seat_url(new_token), "table_id": new_id}


@router.get("/tables/{table_id}/record")
async def record(table_id: str, server: Srv) -> Response:
    """The game record, once the game is over (before, it would show the deck order)."""
    info = await to_thread.run_sync(server.storage.table, table_id)
    if info is None:
        raise Refused(404, "no_such_table", f"there is no table {table_id!r}")
    if info.status != OVER:
        raise Refused(409, "not_over", "the record is given once the game is over: it holds the deck order")
    game = await to_thread.run_sync(stored_record, server.storage, info)
    return Response(
        game.to_json(),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="liverpool-{info.id}.json"'},
    )


def _record_of(info: TableInfo, actions: list[dict[str, Any]], undone: list[dict[str, Any]]) -> GameRecord:
    """The table's game record; ``meta.undone`` keeps the actions taken back by undo (each ``at`` the index
    they were taken back to, as the terminal client's records have them)."""
    names = [display_name(s.seat, s.name, s.bot) for s in info.seats]
    meta: dict[str, Any] = {"table_id": info.id, "created": info.created.isoformat()}
    if any(s.bot is not None for s in info.seats):
        meta["bot_versions"] = seat_bots(info)
    if undone:
        meta["undone"] = [{"at": u["at"], "seat": u["seat"], "actions": u["actions"]} for u in undone]
    actions_ = [action_from_dict(a) for a in actions]
    return GameRecord(
        Ruleset.from_dict(info.ruleset), names, info.first_dealer, actions_, meta, position=table_position(info)
    )


def stored_record(storage: Storage, info: TableInfo) -> GameRecord:
    """The record of a table as stored (blocking)."""
    undone = [data for _, _, data in storage.notes(info.id, "undo")]
    return _record_of(info, storage.actions(info.id), undone)


def _views(record: GameRecord) -> dict[str, Any]:
    """The replay of ``record`` at every step, as the engine builds it (``replay_views``), narrated (``text``
    in English, ``words`` as phrases), and the moves taken back by undo, each narrated where it was played
    (``undone``: ``at``, ``seat``, ``lines``, ``words``)."""
    said: list[Phrase] = [BEFORE_FIRST_DEAL]

    def narrate(before: GameState, action: Action) -> str:
        said.append(describe_words(before, action))
        return english(said[-1], record.seats)

    steps = replay_views(record, narrate)
    for step, phrase in zip(steps, said, strict=True):
        step["words"] = [phrase.to_dict()]
    undone = [_undone(record, n, u) for n, u in enumerate(record.meta.get("undone") or [])]
    return {
        "ruleset": record.rules.to_dict(),
        "names": record.seats,
        "meta": record.meta,
        "steps": steps,
        "undone": undone,
    }


def _undone(record: GameRecord, n: int, taken: Any) -> dict[str, Any]:
    """One take-back of ``meta.undone``, narrated; :class:`RecordError` naming what is wrong with it."""
    where = f"$.meta.undone[{n}]"
    try:
        at, raw = int(taken["at"]), list(taken["actions"])
        if not 0 <= at <= len(record.actions):
            raise ValueError(f"at {at} is not an index of the record's actions (0..{len(record.actions)})")
        state = replay(
            GameRecord(record.rules, record.seats, record.first_dealer, record.actions[:at], position=record.position)
        )
        moves = []
        for action in map(action_from_dict, raw):
            moves.append(describe_words(state, action))
            apply(state, action)
    except (TypeError, KeyError, IndexError, ValueError) as exc:  # IllegalAction is a ValueError too
        raise RecordError(where, f"not a take-back: {exc}") from exc
    lines = [english(move, record.seats) for move in moves]
    return {"at": at, "seat": taken.get("seat"), "lines": lines, "words": [move.to_dict() for move in moves]}


@router.get("/tables/{table_id}/replay")
async def table_replay(table_id: str, server: Srv) -> dict[str, Any]:
    """Every step of a finished game: the table after each action (every hand shown), built by the engine."""
    info = await to_thread.run_sync(server.storage.table, table_id)
    if info is None:
        raise Refused(404, "no_such_table", f"there is no table {table_id!r}")
    if info.status != OVER:
        raise Refused(409, "not_over", "the replay is given once the game is over: it shows every hand")
    game = await to_thread.run_sync(stored_record, server.storage, info)
    return await to_thread.run_sync(_views, game)


@router.post("/replay")
async def replay_record(request: Request) -> dict[str, Any]:
    """Every step of an uploaded game record (docs/record-format.md), built by the engine."""
    body = await request.body()
    try:
        record = GameRecord.from_json(body.decode("utf-8"))
    except (RecordError, UnicodeDecodeError) as exc:
        raise Refused(422, "bad_record", f"not a game record: {exc}") from exc
    try:
        return await to_thread.run_sync(_views, record)
    except (RecordError, ReplayError) as exc:
        raise Refused(422, "bad_record", f"the record cannot be replayed: {exc}") from exc


@router.post("/seat/{token}/draft")
async def draft(token: str, body: DraftGoDown, server: Srv) -> dict[str, Any]:
    """Check a going-down being built (the builder asks after each change): each meld's cards as they lie,
    what each joker stands for, the ways a run could lie, what is wrong, and the ``go_down`` action to send
    once the engine would accept it (``engine.draft_go_down``)."""
    found = await to_thread.run_sync(server.storage.seat_by_token, token)
    if found is None:
        raise Refused(404, "no_such_seat", "this seat link does not exist")
    info, seat = found
    table = await _actor(server, info.id)
    state = table.state if isinstance(table, TableActor) else await table.current_state()
    if state is None or not state.hands:
        raise Refused(409, "no_deal", "there is no deal in play to go down in")
    try:
        slots = [parse_cards(" ".join(slot)) for slot in body.slots]
        result = draft_go_down(state, seat, slots, body.choices)
    except (CardNotationError, ValueError) as exc:
        raise Refused(422, "bad_draft", str(exc), "slots") from exc
    return result.to_dict()


@router.get("/tables/{table_id}/rules")
async def table_rules(table_id: str, server: Srv) -> dict[str, Any]:
    """The table's whole ruleset in words, by topic (the engine's ``rulestext``), and its summary."""
    info = await to_thread.run_sync(server.storage.table, table_id)
    if info is None:
        raise Refused(404, "no_such_table", f"there is no table {table_id!r}")
    rules = Ruleset.from_dict(info.ruleset)
    fields = rules_in_fields(rules)
    return {
        "name": rules.name,
        "title": rules.title,
        "summary": summary(rules),
        "rules": rules.to_dict(),
        "note_keys": note_keys(rules),
        "groups": [
            {"group": group, "key": Group(group).name.lower(), "sentences": sentences, "fields": fields[group]}
            for group, sentences in rules_in_words(rules)
        ],
    }
