"""Entity resolution: the mentions of all papers become canonical entities (:mod:`kg.resolve.entities`),
each with a stable IRI (:mod:`kg.resolve.ids`)."""
