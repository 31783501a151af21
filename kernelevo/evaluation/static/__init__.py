"""The static checks: a candidate's source read, nothing of it run, in the trusted evaluator process.

The evaluator, the Ray pool and a batch turn a rejected source away here before any child starts
(:mod:`~kernelevo.evaluation.static.gate`); the reference seed reads the same rules.
"""
