"""Pydantic v2 request and response models and their conversion to rules values."""
