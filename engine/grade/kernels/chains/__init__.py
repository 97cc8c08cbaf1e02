"""The compiled chains: the rows ``chains-and-cycles`` (``cycles``, on the static ``walk``) and the forcing chains
(``forcing``: Nishio, multiple, dynamic, dynamic +), with what they run on (``implications``: the rules between
candidates; ``slots``: sets of states with their parents; ``space``: the searches' shared workspace; ``plus``:
the rules of a "+" run; ``static_miss``: where a multiple forcing chain can conclude), and the compiled parts of
the nested ones (``nested``, ``plain``), whose outer search is :mod:`engine.grade.finders.chains.nested`.
"""
