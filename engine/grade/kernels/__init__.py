"""The compiled grader: one kernel module per family of techniques, twins of :mod:`engine.grade.finders` under the
same file names (``singles``, ``locked``, ``subsets``, ``fish``, ``wings``, ``unique_loops``, ``bug``,
``aligned``, ``chains/``), and what they share: the candidate state (``state``), the memo of misses (``misses``),
the families the table's rows name (``families``), and the driver (``driver``: the step loop, ``grade_counts``,
``step_counter``). Importing this package loads nothing; its modules load numba when imported.
"""
