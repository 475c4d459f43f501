"""Values the game loop keeps made once (issue 24's speed: `random` bots' games) say what they would say made
anew: each seat's asking order, and the fault of a seat that bought its limit."""

from __future__ import annotations

from liverpool.engine import GameState, find_preset
from liverpool.engine.game.checks import _buy_limit_fault
from liverpool.engine.game.legal import asking_order, seat_order
from liverpool.engine.problems import Fault, Problem


def test_the_order_kept_for_each_seat_is_the_asking_order() -> None:
    """RULES.md §3.13 buying: precedence: the seats after the current one, nearest first, then the current."""
    rules = find_preset("british")
    for seats in (4, 6, 5, 2, 8, 3, 7):  # (not in order: the table grows past sizes not asked yet)
        for current in range(seats):
            state = GameState(rules=rules, seats=seats, first_dealer=0, dealer=0, current=current)
            after = [seat % seats for seat in range(current + 1, current + seats)]
            assert asking_order(state) == [*after, current], (seats, current)
            assert list(seat_order(seats, current)) == asking_order(state), (seats, current)
            assert seat_order(seats, current) is seat_order(seats, current)
    order = asking_order(state)
    order.reverse()  # a caller's own list: changing it changes nobody else's
    assert asking_order(state) == [0, 1, 2, 3, 4, 5, 6]


def test_a_kept_buy_limit_fault_names_its_limit() -> None:
    for limit in (3, 0, 1, 7, 63, 64, 200):
        fault = _buy_limit_fault(limit)
        assert fault == Fault(Problem.BUY_LIMIT, {"limit": limit})
        assert fault.text() == f"you have used all {limit} buys of this deal"
