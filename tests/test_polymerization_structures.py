"""The structures on the polymer-chain game's cards are the compounds they name (issue 20).

The deck file keeps each compound's name and its SMILES; the service serves them as
data. Here two maintained chemistry libraries check them, so a wrong structure cannot
ship: RDKit parses every SMILES and its formula must be the card's formula as molmass
reads it (the formula the molar masses are computed from), and OPSIN (IUPAC name to
structure) must turn the compound's name into the same molecule (the same standard
InChIKey). Both are test-only dependencies: the service needs neither.
"""

from __future__ import annotations

import os
import shutil
from collections import Counter

import pytest
from molmass import Formula
from py2opsin import py2opsin
from rdkit import Chem
from rdkit.Chem.Descriptors import MolWt  # type: ignore[attr-defined]  # set at import, unstubbed
from rdkit.Chem.rdMolDescriptors import CalcMolFormula

from rules.polymerization import GAME
from rules.polymerization.cards import FACES, MONOMER, Face

STRUCTURES: dict[str, Face] = {f.key: f for f in FACES if f.smiles is not None}
"""One face per compound (a monomer's three values share it)."""


def atoms(formula: str) -> Counter[str]:
    """Element -> count, as molmass reads a formula."""
    return Counter({s: int(n) for s, n, _m, _f in Formula(formula).composition().astuple()})


def molecule(face: Face) -> Chem.Mol:
    assert face.smiles is not None
    mol = Chem.MolFromSmiles(face.smiles)
    assert mol is not None, f"{face.key}: RDKit cannot parse {face.smiles!r}"
    return mol


def test_the_cards_with_a_formula_are_the_ones_with_a_structure() -> None:
    assert sorted(STRUCTURES) == [
        "acrylonitrile",
        "aibn",
        "cta",
        "fenton",
        "methyl_acrylate",
        "methyl_methacrylate",
        "styrene",
        "tempo",
    ]
    for face in FACES:
        assert (face.formula is None) is (face.smiles is None) is (face.compound is None)


@pytest.mark.parametrize("key", sorted(STRUCTURES))
def test_each_structure_has_the_formula_on_its_card(key: str) -> None:
    face = STRUCTURES[key]
    assert face.formula is not None and face.molar_mass is not None
    mol = molecule(face)
    assert atoms(CalcMolFormula(mol)) == atoms(face.formula)
    # RDKit's own atomic weights give the same molar mass to 0.01 g/mol
    assert MolWt(mol) == pytest.approx(face.molar_mass, abs=0.01)
    # TEMPO is the stable nitroxide radical; every other compound is closed-shell
    unpaired = sum(atom.GetNumRadicalElectrons() for atom in mol.GetAtoms())
    assert unpaired == (1 if key == "tempo" else 0)


def test_a_wrong_structure_would_be_caught() -> None:
    """The check is not vacuous: methyl acrylate's SMILES on the methyl methacrylate
    card (one CH2 short) fails it."""
    wrong = Chem.MolFromSmiles(str(STRUCTURES["methyl_acrylate"].smiles))
    assert atoms(CalcMolFormula(wrong)) != atoms(str(STRUCTURES["methyl_methacrylate"].formula))


def test_a_monomers_compound_is_the_name_on_its_card() -> None:
    for face in STRUCTURES.values():
        if face.kind == MONOMER:
            assert face.compound == face.name.lower()


def _java_or_skip() -> None:
    if shutil.which("java") is None:
        if os.environ.get("CI"):
            pytest.fail("OPSIN needs Java, which CI's machine image has; it is missing")
        pytest.skip("OPSIN needs Java (a JRE 8 or newer): the name check cannot run here")


def test_each_structure_is_the_compound_it_names(tmp_path: os.PathLike[str]) -> None:
    _java_or_skip()
    faces = list(STRUCTURES.values())
    names = [str(f.compound) for f in faces]
    derived = py2opsin(
        names,
        output_format="SMILES",
        allow_radicals=True,  # TEMPO's name is a radical's: "...oxyl"
        tmp_fpath=os.path.join(tmp_path, "names.txt"),
    )
    for face, smiles in zip(faces, derived, strict=True):
        named = Chem.MolFromSmiles(smiles) if smiles else None
        assert named is not None, f"OPSIN cannot parse the compound name {face.compound!r}"
        # one molecule, however written: the same standard InChIKey
        assert Chem.MolToInchiKey(molecule(face)) == Chem.MolToInchiKey(named), (
            f"{face.key}: the SMILES {face.smiles!r} is not {face.compound}; from its name "
            f"OPSIN and RDKit give {Chem.MolToSmiles(named)!r}"
        )


def test_views_and_the_catalogue_serve_the_checked_structures() -> None:
    state = GAME.setup(2, {}, seed=1)
    view = GAME.view(state, 0)
    served = {m["key"]: m for m in view["monomers"] + view["initiators"]}
    assert sorted(served) == sorted(k for k in STRUCTURES if k not in ("tempo", "cta"))
    for key, entry in served.items():
        face = STRUCTURES[key]
        assert (entry["smiles"], entry["formula"], entry["compound"]) == (
            face.smiles,
            face.formula,
            face.compound,
        )
        assert entry["molar_mass"] == face.molar_mass
    for card in GAME.deck():
        if "smiles" in card:
            assert card["smiles"] == STRUCTURES[card["key"]].smiles
