"""When two names are one person's or one club's, as people read them (case, runs of
spaces, hyphens and accents ignored); and the refusal when a federation number names a
person of another name ("two clubs claiming one person"), which every way of naming a
person by number gives (a club's new member, a director's entry by number, a results file).

The standard library and Django's lazy translation only.
"""

import unicodedata

from django.utils.translation import gettext_lazy as _

#: "Two clubs claiming one person": the number is known under another name. Nothing of
#: the other record or its clubs is said but the fact.
NUMBER_CLAIMED = _(
    "Federation number %(number)s belongs to a person with another name. Check the number; "
    "if it is this person, the name must first be made the same (by a club of theirs or "
    "the federation)."
)

#: A club whose name reads as another club's: people could not tell them apart.
CLUB_NAME_TAKEN = _("A club with this name is already on Bordpunt. Choose another name.")


def name_key(name: str) -> str:
    """The form names are compared in.

    >>> name_key("  Anke   DÉ Vriës ") == name_key("anke de vries")
    True
    >>> name_key("Scrabbleclub-Alfa") == name_key("scrabbleclub  alfa")
    True
    >>> name_key("Anke de Vries") == name_key("Anke de Vriesch")
    False
    """
    if name.isascii():
        # The same form, found quicker: in ASCII, NFKD changes nothing, nothing combines,
        # "-" is the only dash and casefold is lower (a season's import compares thousands
        # of names, nearly all of them ASCII: benchmarks/ranking.py).
        return " ".join(name.replace("-", " ").split()).lower()
    return _name_key_of_any_text(name)


def _name_key_of_any_text(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    # A hyphen (or any dash) reads as the space between two words.
    bare = "".join(
        " " if unicodedata.category(char) == "Pd" else char
        for char in decomposed
        if not unicodedata.combining(char)
    )
    return " ".join(bare.split()).casefold()
