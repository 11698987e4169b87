"""The handlers behind specs/workbench.toolc.yaml: a small, real example app."""
