"""The casino project package: settings, URLs, ASGI and the shared core."""
