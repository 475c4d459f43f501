"""The command model of the terminal client and its parser: text typed on the command line to a command.

Card positions and meld numbers are 1-based as shown on the screen. The parser knows nothing of the game:
whether a command is legal now is the engine's answer, given when it is turned into an action.

>>> parse("x 3")
Command(verb='discard', cards=(3,), meld=None, groups=(), path=None)
>>> parse("l 1,2,3 4,5,6,7").groups
((1, 2, 3), (4, 5, 6, 7))
"""

from __future__ import annotations

from dataclasses import dataclass

VERBS: dict[str, str] = {
    "d": "draw",
    "draw": "draw",
    "t": "take",
    "take": "take",
    "x": "discard",
    "discard": "discard",
    "l": "down",
    "down": "down",
    "o": "layoff",
    "layoff": "layoff",
    "swap": "swap",
    "w": "swap",
    "b": "buy",
    "buy": "buy",
    "p": "pass",
    "pass": "pass",
    "c": "call",
    "call": "call",
    "e": "end",
    "end": "end",
    "s": "sort",
    "sort": "sort",
    "?": "help",
    "h": "hint",
    "hint": "hint",
    "u": "undo",
    "undo": "undo",
    "help": "help",
    "q": "quit",
    "quit": "quit",
    "save": "save",
}

# verb -> (what follows it, for the help screen and errors)
USAGE: dict[str, str] = {
    "draw": "d            draw from the stock",
    "take": "t            take the top discard",
    "discard": "x N          discard card N of your hand",
    "down": "l 1,2,3 4,5,6,7   go down: one group of card positions per meld",
    "layoff": "o N M        lay card N off on table meld M",
    "swap": "swap N M     put card N in meld M in place of its joker",
    "buy": "b            buy the top discard (May I?)",
    "pass": "p            pass (decline to buy or call)",
    "call": "c [N]        call the discard (with card N: call Liverpool and shed it)",
    "end": "e            end the turn without a discard",
    "sort": "s            sort your hand by suit or by rank",
    "save": "save [FILE]  save the game (also ctrl+s)",
    "hint": "h            a hint: what the strongest bot would do now (also F2)",
    "undo": "u            take back your last move and the bots' after it (also F3)",
    "help": "?            this help",
    "quit": "q            quit",
}


class CommandError(ValueError):
    """Text that is not a command, with what was expected."""


@dataclass(frozen=True, slots=True)
class Command:
    """One command: ``verb`` (a value of :data:`VERBS`), card positions, a meld number, go-down groups."""

    verb: str
    cards: tuple[int, ...] = ()
    meld: int | None = None
    groups: tuple[tuple[int, ...], ...] = ()
    path: str | None = None


def _number(text: str, what: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise CommandError(f"{what} must be a number from 1, not {text!r}")
    return int(text)


def parse(text: str) -> Command:
    """The command ``text`` says; :class:`CommandError` naming what is wrong otherwise."""
    words = text.strip().split()
    if not words:
        raise CommandError("type a command (? for help)")
    head, args = words[0].lower(), words[1:]
    verb = VERBS.get(head)
    if verb is None:
        raise CommandError(f"unknown command {words[0]!r} (? for help)")
    usage = USAGE[verb]
    if verb == "save":
        if len(args) > 1:
            raise CommandError(f"usage: {usage}")
        return Command(verb, path=args[0] if args else None)
    if verb == "discard":
        if len(args) != 1:
            raise CommandError(f"usage: {usage}")
        return Command(verb, cards=(_number(args[0], "the card"),))
    if verb in ("layoff", "swap"):
        if len(args) != 2:
            raise CommandError(f"usage: {usage}")
        return Command(verb, cards=(_number(args[0], "the card"),), meld=_number(args[1], "the meld"))
    if verb == "call":
        if len(args) > 1:
            raise CommandError(f"usage: {usage}")
        return Command(verb, cards=tuple(_number(a, "the card") for a in args))
    if verb == "down":
        if not args:
            raise CommandError(f"usage: {usage}")
        groups = tuple(tuple(_number(p, "a card") for p in arg.split(",") if p) for arg in args)
        every = [p for g in groups for p in g]
        if any(not g for g in groups):
            raise CommandError("an empty group of cards")
        if len(set(every)) != len(every):
            raise CommandError("a card appears in two places")
        return Command(verb, groups=groups)
    if args:
        raise CommandError(f"usage: {usage}")
    return Command(verb)


def picked_command(groups: list[list[int]], meld: int | None = None) -> str:
    """The typed command cursor mode's picks stand for, so both ways go through :func:`parse`: one card is a
    discard (or, with ``meld``, a lay-off on that meld), several cards or groups a go-down."""
    cards = [p for g in groups for p in g]
    if not cards:
        return ""
    if meld is not None and len(cards) == 1:
        return f"o {cards[0]} {meld}"
    if len(cards) == 1:
        return f"x {cards[0]}"
    return "l " + " ".join(",".join(str(p) for p in g) for g in groups if g)
