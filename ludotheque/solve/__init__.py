"""The General solved: retrograde tables of every position, and the verdicts they give."""
