"""Closed-form theory of label DP learning: minimax rates (003 Table 1), exponents, sample
complexity and tuning rules, symbolic (sympy) and numeric. Draws no random numbers."""
