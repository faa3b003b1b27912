"""Everything that verifies: exact DP checks, the RRWithPrior LP, symbolic proof-step checks,
and the findings where the papers are wrong."""
