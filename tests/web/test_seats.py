"""Room codes and seat tokens, below the API."""

from __future__ import annotations

from web.seats import ROOM_ALPHABET, hash_token, new_token, normalise_code


def test_room_codes_avoid_letters_misread_at_arms_length() -> None:
    assert not set("IO01") & set(ROOM_ALPHABET)


def test_a_typed_code_is_normalised() -> None:
    assert normalise_code(" ab-cd ") == "ABCD"


def test_tokens_are_long_random_and_hashed() -> None:
    first, second = new_token(), new_token()
    assert first != second and len(first) >= 40
    assert hash_token(first) != first and len(hash_token(first)) == 64
