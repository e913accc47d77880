"""A club's name compared as people read it: a look-alike of another club's name is refused
wherever a club is made or renamed (clubs.models.club_name_taken)."""

import pytest
from django.core.exceptions import ValidationError
from hypothesis import given
from hypothesis import strategies as st

from clubs.models import Club, club_name_taken
from clubs.names import _name_key_of_any_text, name_key
from clubs.services import club_save
from tests.factories import ClubFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "name", ["Scrabbleclub-Alfa", "Scrabbleclub  Alfa", " scrabbleclub ÁLFA", "Scrabbleclub – Alfa"]
)
def test_a_look_alike_of_a_club_name_is_taken(name):
    ClubFactory(name="Scrabbleclub Alfa")
    assert club_name_taken(name)


def test_another_name_and_the_club_itself_are_not_taken():
    alfa = ClubFactory(name="Scrabbleclub Alfa")
    assert not club_name_taken("Scrabbleclub Alfa 2")
    assert not club_name_taken("Scrabbleclub-Alfa", other_than=alfa.pk)


def test_a_new_or_renamed_club_may_not_look_like_another_but_an_old_look_alike_saves():
    ClubFactory(name="Scrabbleclub Alfa")
    with pytest.raises(ValidationError) as refused:
        Club(name="Scrabbleclub-Alfa", slug="alfa-2").full_clean()
    assert refused.value.error_dict["name"][0].code == "taken"
    # A look-alike from before the rule keeps working until it is renamed.
    old = ClubFactory(name="Scrabbleclub  Alfa", slug="alfa-3")
    old = Club.objects.get(pk=old.pk)
    old.city = "Delft"
    club_save(old, by=UserFactory())
    old.name = "SCRABBLECLUB ALFA"
    with pytest.raises(ValidationError):
        club_save(old, by=UserFactory())


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=30))
def test_an_ascii_name_has_the_key_any_text_of_its_letters_would_have(name):
    assert name_key(name) == _name_key_of_any_text(name)
