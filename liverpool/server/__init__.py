"""The table server (``liverpool serve``): a lobby over HTTP, play over websockets, games stored in a database.

The protocol is ``docs/protocol.md``. Each table has one actor (:mod:`.actor`) that handles its
clients, bots and timers in order; every action is stored (:mod:`.storage`) before it is broadcast,
and a restarted server rebuilds each table by replaying its stored actions through the engine.
"""
