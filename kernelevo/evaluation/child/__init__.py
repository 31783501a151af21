"""The child's side: what runs in the sandboxed children that execute a candidate's code.

The candidate's child (:mod:`~kernelevo.evaluation.child.runner`) imports the candidate, instruments it, runs
and times it, and decides nothing; the precompilers and the ahead-of-time and CUDA compilers execute or compile
it in children of their own. It imports only :mod:`kernelevo.evaluation.common`, never the judge's side.
"""
