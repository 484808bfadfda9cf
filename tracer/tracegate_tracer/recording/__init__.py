"""Recording, in the test process: the backend-neutral recorder and its sys.settrace and sys.monitoring
backends, the facts they read (code objects, frames, statement lines, values) and the trace they write."""
