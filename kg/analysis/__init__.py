"""Network analysis of a paperkg graph with NetworkX (conversion, statistics, exports)."""
