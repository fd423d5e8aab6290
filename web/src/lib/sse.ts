// An event stream read with fetch, so that a credential can go in the Authorization
// header (EventSource cannot send one, and a token in the URL would end up in logs).
// The frames are the server-sent events of the contract: `event:`, `id:` and `data:`
// lines, a blank line after each frame.
import type { Problem } from "./contract";

/** One frame: its event name (`message` when it names none) and its data's JSON. */
export interface Frame {
  event: string;
  data: Record<string, unknown>;
}

/** How a stream ended: `problem` when the service refused it before any frame. */
export interface StreamEnded {
  status: number;
  problem: Problem | null;
}

/**
 * Reads `GET url` as an event stream until the server ends it, each frame to `onFrame`
 * (`onOpen` first, once the service has accepted the stream). Rejects when the network
 * fails or `signal` aborts it.
 */
export async function readStream(
  url: string,
  token: string,
  signal: AbortSignal,
  onOpen: () => void,
  onFrame: (frame: Frame) => void,
): Promise<StreamEnded> {
  const resp = await fetch(url, {
    headers: { Authorization: `Bearer ${token}`, Accept: "text/event-stream" },
    credentials: "omit",
    cache: "no-store",
    signal,
  });
  if (!resp.ok || resp.body === null) {
    let problem: Problem | null = null;
    try {
      problem = (await resp.json()) as Problem;
    } catch {
      // not the service's answer (a proxy's page): the status says enough
    }
    return { status: resp.status, problem };
  }
  onOpen();
  const reader = resp.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += value;
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const frame = parseFrame(buffer.slice(0, cut));
      buffer = buffer.slice(cut + 2);
      if (frame !== null) onFrame(frame);
      cut = buffer.indexOf("\n\n");
    }
  }
  return { status: resp.status, problem: null };
}

/** A frame's lines; null for a frame without data (`retry:` alone, a comment). */
export function parseFrame(block: string): Frame | null {
  let event = "message";
  let data = "";
  for (const line of block.split("\n")) {
    if (line.startsWith("event: ")) event = line.slice(7);
    else if (line.startsWith("data: ")) data += line.slice(6);
  }
  if (!data) return null;
  try {
    return { event, data: JSON.parse(data) as Record<string, unknown> };
  } catch {
    return null;
  }
}
