// A QR code drawn as one SVG path from lean-qr's module matrix: no canvas, no data URL,
// nothing a strict Content-Security-Policy has to allow.
import { generate } from "lean-qr";

export function Qr({ text, label }: { text: string; label: string }) {
  const code = generate(text);
  const pad = 4; // the quiet zone the QR specification asks for
  const size = code.size + 2 * pad;
  let d = "";
  for (let y = 0; y < code.size; y++) {
    for (let x = 0; x < code.size; x++) {
      if (code.get(x, y)) d += `M${x + pad} ${y + pad}h1v1h-1z`;
    }
  }
  return (
    <svg class="qr" viewBox={`0 0 ${size} ${size}`} role="img" aria-label={label} shape-rendering="crispEdges">
      <rect class="qr-light" width={size} height={size} />
      <path class="qr-dark" d={d} />
    </svg>
  );
}
