"""SPARQL text handling that needs no engine: a lexer and the read-only safety checks built on it."""
