"""The fill pipeline: generator actors -> checker actors -> one writer actor, over bounded queues.

``catalogue.pipeline.run.fill`` is the entry point; see its module docstring for the diagram and the shutdown
and Ctrl-C rules. Nothing is imported here so that ``catalogue --help`` does not load numba or SQLAlchemy.
"""
