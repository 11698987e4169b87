"""``toolc serve``: finding what to serve, stdio and streamable HTTP, and ``--reload``."""
