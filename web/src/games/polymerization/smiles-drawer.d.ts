// The members of smiles-drawer 2.4.1 that structure.tsx uses (smiles-drawer.js
// re-exports the package; see there why its own declarations are not used).

/** A parsed SMILES string (smiles-drawer's parse tree). */
export interface ParseTree {
  readonly __parseTree: unique symbol;
}

/** smiles-drawer's canvas drawer (its DrawerBase). */
export interface CanvasDrawer {
  draw(tree: ParseTree, target: HTMLCanvasElement, themeName?: "light" | "dark", infoOnly?: boolean): void;
}

export interface DrawerOptions {
  width?: number;
  height?: number;
  padding?: number;
  compactDrawing?: boolean;
}

declare const SmilesDrawer: {
  readonly SvgDrawer: new (options: DrawerOptions) => { readonly preprocessor: CanvasDrawer };
  parse(smiles: string, success: (tree: ParseTree) => void, failure?: (error: Error) => void): void;
};

export default SmilesDrawer;
