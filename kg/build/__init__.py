"""``kg build``: reading, extracting (through an engine), resolving and writing the graph and its outputs.

:func:`kg.build.pipeline.build` runs the stages; the extraction cache, the manifest, the staged outputs
and the test checkpoints are its modules here.
"""
