"""What changed in a view: a JSON Patch (RFC 6902) from the last state a client was sent to the next one.

After the full ``state`` a client gets on connecting, the actor sends each view (each seat's; the
spectators share one) ``{"type": "delta", "seq": n, "base": m, "patch": [...]}``: ``patch`` turns the
state of ``seq`` ``base`` the client holds into the state of ``seq`` ``n`` (docs/protocol.md).

:func:`diff` is a small generic diff of two JSON values, not the ``jsonpatch`` package's ``make_patch``:
on the states of a seeded game it is 26 to 31 times as fast (27 against 853 µs a spectator's state,
``benchmarks/deltas.py``; docs/performance.md). Clients apply its patches with any RFC 6902 library (the terminal client and
the tests with ``jsonpatch``, the browser with ``static/js/patch.js``). Objects are compared key by key;
a list keeps its common head and tail, the items between are compared one by one when as many are left
on both sides, else removed and added (or the list replaced, when that says less). Every value a patch
carries is taken from the new state, so a patch shows nothing its recipient's state does not.

Values Python finds equal are taken as unchanged (``1``, ``1.0`` and ``True``): the server's states
never put one where another was.
"""

from __future__ import annotations

from typing import Any

__all__ = ["diff", "pointer"]


def pointer(key: str) -> str:
    """``key`` as one step of a JSON Pointer (RFC 6901).

    >>> pointer("seats"), pointer("a/b~c")
    ('seats', 'a~1b~0c')
    """
    if "~" in key or "/" in key:
        return key.replace("~", "~0").replace("/", "~1")
    return key


def diff(old: Any, new: Any) -> list[dict[str, Any]]:
    """The RFC 6902 operations that turn the JSON value ``old`` into ``new`` (none if they are equal).

    >>> diff({"seq": 3, "hand": ["2C", "5H", "KS"]}, {"seq": 4, "hand": ["2C", "4D", "5H", "KS"]})
    [{'op': 'replace', 'path': '/seq', 'value': 4}, {'op': 'add', 'path': '/hand/1', 'value': '4D'}]
    >>> diff({"away": [0, 1, 3], "deadline": 2.5}, {"away": [0, 3], "clock": None})  # doctest: +NORMALIZE_WHITESPACE
    [{'op': 'remove', 'path': '/deadline'}, {'op': 'remove', 'path': '/away/1'},
     {'op': 'add', 'path': '/clock', 'value': None}]
    >>> diff([1, 2, 3], [4, 5])
    [{'op': 'replace', 'path': '', 'value': [4, 5]}]
    """
    ops: list[dict[str, Any]] = []
    if type(old) is not type(new) or old != new:
        _diff(old, new, "", ops)
    return ops


def _diff(old: Any, new: Any, path: str, ops: list[dict[str, Any]]) -> None:
    """The changes from ``old`` to ``new``, which differ (each value is compared once, by its container)."""
    if type(old) is dict and type(new) is dict:
        for key in old:
            if key not in new:
                ops.append({"op": "remove", "path": f"{path}/{pointer(key)}"})
        for key, value in new.items():
            if key in old:
                before = old[key]
                if type(before) is not type(value) or before != value:
                    _diff(before, value, f"{path}/{pointer(key)}", ops)
            else:
                ops.append({"op": "add", "path": f"{path}/{pointer(key)}", "value": value})
        return
    if type(old) is list and type(new) is list and _list(old, new, path, ops):
        return
    ops.append({"op": "replace", "path": path, "value": new})


def _list(old: list[Any], new: list[Any], path: str, ops: list[dict[str, Any]]) -> bool:
    """The changes from list ``old`` to ``new``, if they say less than replacing it whole (else False)."""
    n, m = len(old), len(new)
    head = 0
    if old == new[:n] or new == old[:m]:  # one list begins the other (a log grown by a line): compared in C
        head = min(n, m)
    while head < n and head < m and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < n - head and tail < m - head and old[n - 1 - tail] == new[m - 1 - tail]:
        tail += 1
    gone, came = n - head - tail, m - head - tail
    if gone == came:
        for i in range(head, head + gone):
            if type(old[i]) is not type(new[i]) or old[i] != new[i]:
                _diff(old[i], new[i], f"{path}/{i}", ops)
        return True
    if gone + came >= m:
        return False
    ops.extend({"op": "remove", "path": f"{path}/{head}"} for _ in range(gone))
    ops.extend({"op": "add", "path": f"{path}/{head + i}", "value": new[head + i]} for i in range(came))
    return True
