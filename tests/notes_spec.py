"""The smallest project spec the build and CLI tests share: one module, one tool."""

NOTES_SPEC = """\
toolc: 1
module: notes
tools:
  addNote:
    description: Add a note.
    handler: notes_app:add
    params:
      text: {type: string, description: The note.}
"""
