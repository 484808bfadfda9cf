"""tracegate's in-container tracer: records what a target function does while
real tests run, and answers SWE-Flux-style questions from the recording.

Standard library only: it is imported inside arbitrary project environments.
"""

VERSION = "0.2.0"
TRACE_FORMAT = "tracegate-trace/1"
