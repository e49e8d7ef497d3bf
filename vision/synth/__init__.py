"""Synthetic photos for tests, benchmarks and demos: artwork, tables, scenes, camera."""
