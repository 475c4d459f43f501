"""The terminal client speaks to its player: with the default name "you" its log says "you discard 7♥",
"on your set", never "you discards" or "you's set"; any other name is said in the third person."""

from __future__ import annotations

import re

import pytest
from test_tui import _next_command

from liverpool.cli.narrate import log_keys
from liverpool.engine import Card, find_preset
from liverpool.phrases import SECOND_PERSON, YOU, Phrase, Seat, english, english_messages
from liverpool.tui.commands import parse
from liverpool.tui.session import Session

# A third-person verb right after "you" (or "you's"): what the second person must never leave behind.
WRONG = re.compile(
    r"\byou (deals|draws|takes|asks|passes|goes|lays|swaps|discards|ends|calls|sheds|gets|scores)\b|\byou's\b"
)


def forms(key: str) -> list[str]:
    message = english_messages()[key]
    return list(message.values()) if isinstance(message, dict) else [message]


def test_each_second_person_form_is_said_of_the_english_message() -> None:
    for key, (third, second) in SECOND_PERSON.items():
        assert key in log_keys(), key
        assert third != second
        for form in forms(key):
            assert third in form, f"en.json's {key} no longer says {third!r}: {form!r}"


def test_every_log_message_with_a_seat_acting_now_has_its_second_person() -> None:
    """A new log message whose subject acts in the present tense must say how it is said to the player."""
    acting = re.compile(r"^\{(name|dealer)\} \w+s\b|\{dealer\} deals")
    for key in log_keys():
        if any(acting.search(form) for form in forms(key)):
            assert key in SECOND_PERSON, f"{key} has no second person in liverpool.phrases.SECOND_PERSON"


@pytest.mark.parametrize("key", sorted(SECOND_PERSON))
def test_a_sentence_said_to_the_player_and_about_them(key: str) -> None:
    about_ada, to_you = SECOND_PERSON[key]
    third, second = re.sub(r"\{\w+\}", "Ada", about_ada), re.sub(r"\{\w+\}", "you", to_you)
    params = {"name": Seat(0), "dealer": Seat(0), "owner": Seat(1), "card": Card.parse("7H"), "count": 1}
    said = english(Phrase(key, params), [YOU, "Bob"], you=0)
    assert second in said and not WRONG.search(said), said
    assert third in english(Phrase(key, params), ["Ada", "Bob"]), "without you: the third person"
    theirs = {**params, "name": Seat(1), "dealer": Seat(1), "owner": Seat(0)}
    about = english(Phrase(key, theirs), [YOU, "Bob"], you=0)
    assert third.replace("Ada", "Bob") in about and not WRONG.search(about), about
    if "{owner}'s" in "".join(forms(key)):
        assert "your " in about, about


def play(session: Session, moves: int) -> None:
    """The bots' moves and a scripted player's (go down, lay off, discard, never buy), ``moves`` at most."""
    for _ in range(moves):
        if session.turn().kind == "over":
            return
        if not session.step():
            session.act(parse(_next_command(session)))


def test_the_terminal_log_speaks_to_its_player_by_default() -> None:
    session = Session(find_preset("liverpool"), ["easy", "easy", "easy"], seed=19)
    play(session, 400)
    assert len(session.state.results) >= 1, "a deal played to its end"
    log = "\n".join(session.log)
    assert not WRONG.search(log), WRONG.search(log)
    for said in ("you discard ", "you draw from the stock", "you go down", "you lay off"):
        assert said in log, f"{said!r} not in the log"


def test_a_named_player_is_said_in_the_third_person() -> None:
    session = Session(find_preset("liverpool"), ["easy", "easy", "easy"], seed=19, name="ada")
    play(session, 400)
    log = "\n".join(session.log)
    assert "ada discards " in log and "ada goes down" in log and "you " not in log
