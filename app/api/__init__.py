"""The HTTP layer: routers, request/response schemas and dependencies."""
