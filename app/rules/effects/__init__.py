"""The values that card-text readers produce and the engine consumes: cost effects, ways to cast, permissions
and the keyword table. Below ``text/`` (the readers) and ``casting/`` (the engine), above ``values/``."""
