"""The terminal client: a textual app where one seat is played by a person against bots (``liverpool play``).

``commands`` parses the typed command line into commands, ``session`` turns commands into engine actions
and drives the bots, ``app`` is the screen. The engine alone decides what is legal.
"""
