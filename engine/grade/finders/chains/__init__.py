"""The chain rows as steps a person can follow: ``cycles`` (chains-and-cycles), ``forcing`` (Nishio, multiple,
dynamic and nested forcing chains), ``nested`` (the nested rows' outer search), ``steps`` (a conclusion's words
and links) and ``plus`` (the words for what a "+" rule removed). Their searches are the compiled ones
(:mod:`engine.grade.kernels.chains`), loaded when a finder first runs.
"""
