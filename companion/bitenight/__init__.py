"""Bite Night: Moon tiles, rendezvous cards, the rendezvous and the score pad.

Read top-down: ``tiles`` and ``cards`` (the value types), ``scoring`` (B4, B10),
``rendezvous`` (the step-by-step machine, B2-B11), ``game`` (the whole game for the web
server), ``scenario`` and ``commands`` (``companion rendezvous``). docs/bitenight.md
says how each ruling of RULINGS.md is implemented.
"""
