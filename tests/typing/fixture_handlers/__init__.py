"""User code for the generated-code fixtures (see ../README.md)."""
