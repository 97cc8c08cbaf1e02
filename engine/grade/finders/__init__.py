"""The step finders: the explaining path of the grader, one module per family of techniques, each finding a
technique's first step on a :class:`~engine.grade.state.State` in Sudoku Explainer's order and saying it in words.
The compiled twins live in :mod:`engine.grade.kernels` under the same file names; the technique table
(:mod:`engine.grade.techniques`) pairs each row's finder with its kernel.
"""
