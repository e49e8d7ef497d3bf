"""The moat and cellar card game (Vampire Empire): a turn companion with hidden roles.

``rules`` is the engine (RULINGS.md M1-M6) and explains the event model; ``cards`` keeps
each player's piles as counts; ``characters`` deals the secret; ``view`` strips secrets
per seat before anything leaves the server.
"""
