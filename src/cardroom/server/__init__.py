"""The card room on the web: FastAPI pages, the table WebSockets, sessions and roles."""
