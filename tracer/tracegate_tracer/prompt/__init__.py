"""What a result's prompt is made of, read before any run and from source alone: the target located and its
context block, the slice of what it may call, the test files, the environment's versions, the question."""
