"""The game's rules in motion: what an action must satisfy, what it does, and what may be done next.

- :mod:`.core`: :func:`new_game` and :func:`apply`, the one way a game changes (verify, then perform);
- :mod:`.verify`: the checks made before an action is performed (each refusal an ``IllegalAction``);
- :mod:`.perform`: dealing, drawing, buying, melding, discarding, moving the turn on;
- :mod:`.scoring`: a deal's end, its scores and the game's winners;
- :mod:`.checks`: the rule predicates that verifying, listing and the bots share (the final deal's buy
  limit, whether a discard may be laid off, who may buy next, ...);
- :mod:`.legal`: :func:`legal_actions`, every action a seat may take now;
- :mod:`.draft`: a going-down being built, checked meld by meld (what the browser's builder asks).
"""

from liverpool.engine.game.core import apply, new_game
from liverpool.engine.game.legal import go_down_arrangements, is_chance, legal_actions
from liverpool.engine.game.verify import is_legal, shoe

__all__ = ["apply", "go_down_arrangements", "is_chance", "is_legal", "legal_actions", "new_game", "shoe"]
