"""Writing ``generated/``: the plan, staged writing, the journal and manifest, the
confinement of every path to the output folder, the build lock."""
