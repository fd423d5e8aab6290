import type { ComponentChildren } from "preact";

/** A page that can only say something (no table to show). */
export function Message({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <main id="main">
      <h1>{title}</h1>
      {children}
      <p>
        <a href="/play">Start a new game</a> · <a href="/docs">API documentation</a>
      </p>
    </main>
  );
}
