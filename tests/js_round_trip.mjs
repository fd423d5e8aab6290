// Reads JSON documents, one per line, and writes each back as JavaScript reads it:
// JSON.parse turns every number into a double, so a whole number beyond 2**53 - 1
// comes back rounded (tests/contract.py compares the two).
import { createInterface } from "node:readline";

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  process.stdout.write(JSON.stringify(JSON.parse(line)) + "\n");
}
