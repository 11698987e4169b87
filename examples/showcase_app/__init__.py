"""Handlers, predicate, prepare function and wrapper behind specs/showcase.toolc.yaml."""
