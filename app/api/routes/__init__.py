"""One router module per resource; each is included in ``app.api.router``."""
