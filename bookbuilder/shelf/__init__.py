"""A shelf: a folder of books built together (books), incrementally and in parallel or on a Dask
cluster (build), with a catalogue of what was built (catalog)."""
