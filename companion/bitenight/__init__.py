"""Bite Night: Moon tiles, Rendezvous cards, the rendezvous and the score pad."""
