"""What each CLI command does: one function per command, returning its exit code.

``cli.py`` parses the options and calls these; nothing here parses arguments.
"""
