"""The instance generator's part in the tracer: what a test file runs of a package (scout), the questions
proposed from it (propose), and seeded mutants of a function (mutants)."""
