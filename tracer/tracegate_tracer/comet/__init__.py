"""Comet's kinds (B1/B2): a reply run against the buggy and the correct version (verify), a bug's reference
harvest (reference), one bounded run (runs), and the two versions and their respellings (versions)."""
