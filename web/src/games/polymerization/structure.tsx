// A compound's structure drawn from its SMILES by smiles-drawer, on a canvas.
//
// smiles-drawer 2.x's exported `Drawer` draws an SVG and copies it onto the canvas
// through an <img> with a `data:` URL, and its `SvgDrawer` adds <style> elements and
// `style` attributes: the pages' Content-Security-Policy refuses all three
// (`img-src 'self'`, `style-src 'self'`). Its canvas drawer (`DrawerBase`, which every
// `SvgDrawer` keeps as its `preprocessor`) paints the canvas's 2D context directly and
// sets only `canvas.style.width/height` through the CSSOM, which a CSP does not govern.
// That is the drawer used here. The canvas is an image with a name (role="img",
// aria-label): the compound's name and formula, since a structure cannot be read aloud.
import { useEffect, useRef, useState } from "preact/hooks";
import SmilesDrawer, { type CanvasDrawer } from "./smiles-drawer";

/** Canvas size in CSS pixels; style.css gives `.structure` the same size. */
const WIDTH = 112;
const HEIGHT = 84;

let drawer: CanvasDrawer | null = null;

function canvasDrawer(): CanvasDrawer {
  drawer ??= new SmilesDrawer.SvgDrawer({ width: WIDTH, height: HEIGHT, padding: 6, compactDrawing: false })
    .preprocessor;
  return drawer;
}

/** Draws `smiles` into `canvas`; false when it cannot be parsed or drawn. */
function draw(canvas: HTMLCanvasElement, smiles: string): boolean {
  let drawn = false;
  SmilesDrawer.parse(
    smiles,
    (tree) => {
      try {
        canvasDrawer().draw(tree, canvas, "light", false);
        drawn = true;
      } catch {
        drawn = false;
      }
    },
    () => {
      drawn = false;
    },
  );
  return drawn;
}

/** The structure of a compound, named by its name and formula. */
export function Structure({ smiles, name, formula }: { smiles: string; name: string; formula?: string | undefined }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [failed, setFailed] = useState(false);
  // drawn once the canvas has a size (smiles-drawer scales to it): at once, or when a
  // closed <details> around it opens
  useEffect(() => {
    const element = canvas.current;
    if (!element) return;
    let drawn = false;
    const attempt = () => {
      if (drawn || element.offsetWidth === 0) return;
      drawn = true;
      setFailed(!draw(element, smiles));
    };
    attempt();
    const watch = new ResizeObserver(attempt);
    watch.observe(element);
    return () => watch.disconnect();
  }, [smiles]);
  const label = `Structure of ${name}${formula ? `, ${formula}` : ""}`;
  if (failed) return <span class="structure-text">{smiles}</span>;
  return (
    <canvas
      ref={canvas}
      class="structure"
      width={WIDTH}
      height={HEIGHT}
      role="img"
      aria-label={label}
      data-smiles={smiles}
    />
  );
}
