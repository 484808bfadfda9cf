"""An instance's own parser over its trace: supervised by the driver (instance_parser), run in a process of
its own (parser_child, which imports nothing from the tracer)."""
