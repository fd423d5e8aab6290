"""Chemistry facts shared by the games: elements, ion pairs, element-symbol words.

Element facts come from :mod:`molmass`; the word list is generated from Debian's
``wamerican`` by ``scripts/build_words.py`` (``make words``). Each place where this
package decides a debated fact is a small commented table in its module and a
section of ``docs/rules/element-draft.md``.

>>> from rules.chemistry import BY_SYMBOL, max_ion_pairs, spellings
>>> len(max_ion_pairs([BY_SYMBOL["Na"].number, BY_SYMBOL["Cl"].number]))
1
>>> spellings("bacon")
((5, 89, 8, 7), (56, 6, 8, 7), (56, 27, 7))
"""

from rules.chemistry.elements import (
    BISMUTH,
    BY_SYMBOL,
    ELEMENTS,
    FAMILIES,
    FAMILY_NAMES,
    MAX_Z,
    Element,
    element,
    is_radioactive,
)
from rules.chemistry.ions import IonPair, max_ion_pairs
from rules.chemistry.words import Spelling, WordIndex, spellings, validate_word_list

__all__ = [
    "BISMUTH",
    "BY_SYMBOL",
    "ELEMENTS",
    "FAMILIES",
    "FAMILY_NAMES",
    "MAX_Z",
    "Element",
    "IonPair",
    "Spelling",
    "WordIndex",
    "element",
    "is_radioactive",
    "max_ion_pairs",
    "spellings",
    "validate_word_list",
]
