"""The judge's side: the trusted evaluator process and the judge's sandboxed process, which start the children.

The evaluator (the search's, the CLI's, a Ray actor's, a batch's) runs the static checks and starts the judge
and the compilers; the judge (:mod:`~kernelevo.evaluation.judge.process`) runs the spec's reference, starts
each candidate's child and decides every verdict. Nothing of :mod:`kernelevo.evaluation.child` imports this.
"""
