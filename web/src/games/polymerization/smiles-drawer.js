// smiles-drawer, seen by tsc through smiles-drawer.d.ts beside this file: the package's
// own declarations do not compile under tsc --strict (dist/types/src/SvgWrapper.d.ts
// names `Vertex` without importing it), so the few members used here are declared there.
export { default } from "smiles-drawer";
