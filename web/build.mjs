// Bundles src/ into service/static/play/ (or the folder after --out): one ES module per
// page, a chunk per game module (loaded when a page needs it), shared chunks, one
// stylesheet, the pages' HTML naming them, and the bundled libraries' licences. Every
// name carries a hash of its content, so the service can let browsers keep them a year.
// The same sources give the same bytes (tests/test_web_build.py rebuilds and compares).
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const flag = process.argv.indexOf("--out");
const out = resolve(flag > 0 ? process.argv[flag + 1] : join(here, "..", "service", "static", "play"));
const assets = join(out, "assets");
const PAGES = ["new-game", "seat", "table", "lesson", "join"];

rmSync(out, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const result = await esbuild.build({
  absWorkingDir: here,
  entryPoints: [...PAGES.map((p) => `src/pages/${p}.tsx`), "src/style.css"],
  outdir: assets,
  bundle: true,
  splitting: true,
  format: "esm",
  target: ["es2022", "chrome100", "firefox100", "safari15.4"],
  minify: true,
  sourcemap: false,
  legalComments: "none", // the licences are gathered in LICENSES.txt below
  jsx: "automatic",
  jsxImportSource: "preact",
  entryNames: "[name]-[hash]",
  chunkNames: "chunk-[hash]",
  assetNames: "[name]-[hash]",
  metafile: true,
  logLevel: "warning",
  charset: "utf8",
});

const outputs = result.metafile.outputs;
const entry = (source) => {
  const found = Object.entries(outputs).find(([, o]) => o.entryPoint === source);
  if (!found) throw new Error(`no output for ${source}`);
  return `/play/assets/${relative(assets, resolve(here, found[0]))}`;
};
const style = entry("src/style.css");

// the pages: their templates with the hashed names filled in
for (const name of ["index", ...PAGES]) {
  let html = readFileSync(join(here, "src", "pages", `${name}.html`), "utf8");
  html = html.replaceAll("{{style}}", style);
  if (PAGES.includes(name)) html = html.replaceAll("{{script}}", entry(`src/pages/${name}.tsx`));
  if (html.includes("{{")) throw new Error(`${name}.html: a placeholder is left`);
  writeFileSync(join(out, `${name}.html`), html);
}

// the licences of the libraries the bundle includes (MIT and the like ask for them)
const bundled = new Set();
for (const o of Object.values(outputs)) {
  for (const input of Object.keys(o.inputs)) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) bundled.add(m[1]);
  }
}
let licences = "Libraries bundled in these files, with their licences.\n";
for (const pkg of [...bundled].sort()) {
  const dir = join(here, "node_modules", pkg);
  const meta = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  licences += `\n${"=".repeat(78)}\n${pkg} ${meta.version} (${meta.license})\n\n`;
  licences += file ? readFileSync(join(dir, file), "utf8").trim() + "\n" : "(no licence file)\n";
}
writeFileSync(join(assets, "LICENSES.txt"), licences);

const files = readdirSync(assets).sort();
const digest = createHash("sha256");
for (const f of files) digest.update(f).update(readFileSync(join(assets, f)));
console.log(`built ${files.length} assets into ${out} (${digest.digest("hex").slice(0, 12)})`);
