"""Where graphs live: rdflib's API over Oxigraph in memory or on disk (:mod:`kg.store.local`), remote SPARQL
stores (:mod:`kg.store.remote`), opening what a command names (:mod:`kg.store.load`), atomic file writes
(:mod:`kg.store.io`) and the SQLite tables the build caches in (:mod:`kg.store.sqlite`)."""
