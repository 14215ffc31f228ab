"""Shared fixtures of the browser tests: libraries, the server, the browser, the screens' parts."""
