"""Fresh variants: an epoch's pool of edits of an instance's test files (pool, edits, aimed), rendered as
copies (variant), every candidate searched in one traced run (search, splice, sites)."""
