"""Turning extractions into RDF triples of the public schema, and writing the graph: one module per kind of
statement (papers, relations, claims, evidence), the per-paper fragments and their assembly into kg.ttl,
the RDF formats, streamed Turtle and SHACL validation."""
