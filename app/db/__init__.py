"""Persistence: SQLAlchemy 2 models, repositories (all SQL lives here) and the session."""
