"""The world-model kinds (W1-W4): a test measured in clean runs (measure), W4's instrumented run (profile),
and where a measurement came from (provenance)."""
