"""Use cases: orchestrate ``app.rules`` and repositories; keyword-only functions; flush, never commit."""
