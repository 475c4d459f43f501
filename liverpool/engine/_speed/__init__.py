"""Private speed-ups of the engine: tables and helpers kept for the compiled build, no rules."""
