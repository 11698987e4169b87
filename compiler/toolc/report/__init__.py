"""Formatters: one result type, several renderings (text, json, github, markdown)."""
