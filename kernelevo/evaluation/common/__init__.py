"""What the judge's side and the child's side both import, and run in their own processes.

The messages between the evaluator, the judge and the children (:mod:`~kernelevo.evaluation.common.protocol`),
the one timing function for candidates and baselines, racing, the comparison and its poison pattern, the memory
plan, the library policy and its recorder, and the reasons made of failures. It imports no other room.
"""
