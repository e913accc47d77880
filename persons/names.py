"""When two names are one person's: case, runs of spaces and accents ignored.

Pure: the standard library only.
"""

import unicodedata


def name_key(name: str) -> str:
    """The form names are compared in.

    >>> name_key("  Anke   DÉ Vriës ") == name_key("anke de vries")
    True
    >>> name_key("Anke de Vries") == name_key("Anke de Vriesch")
    False
    """
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.split()).casefold()
