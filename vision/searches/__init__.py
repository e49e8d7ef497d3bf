"""Looking again for the pieces the object mask missed.

A piece in a patterned cloth's own colours can vanish from the mask, or leave only
its figure there. Once the frame's chosen pieces say how large a tile is and where
rows and blocks lie, each search looks where such a piece would be, and keeps what
it finds only on a clear match (and mostly an outline all round), as no blob vouches
for it. They run in :meth:`vision.recogniser.Recogniser.detect` after the splits are
chosen (:mod:`vision.choosing`), each taking the frame (:class:`vision.frame.Frame`)
and the pieces chosen so far:

- :mod:`.edges`: tiles against a large object (the deposit mat, a card), and by the
  frame's edges where nothing says how large a tile is;
- :mod:`.rims`: round tiles and tokens by their rims;
- :mod:`.cores`: round tiles around the small coloured disc in their middle, where
  the rest of the face has the cloth's shade;
- :mod:`.fragments`: tiles around bits of their figure, and blobs of about one
  tile's area cut again by their outline;
- :mod:`.beside`: pieces beside a block's or row's lattice, inside heaps of round
  tiles, and between a row's two ends.
"""
