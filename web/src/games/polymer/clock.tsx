// Polymer's timer, counted down from the server's clock. Every session answer carries
// the server's time (`server_now_ms`, Redis's clock) and the deadline (`deadline_ms`);
// the page keeps the offset between the server's time and the device's when the answer
// arrived, and counts down from the deadline on that offset. A device whose clock is
// minutes wrong shows the same time left as every other device at the table.
import { useEffect, useMemo, useState } from "preact/hooks";

/** Milliseconds left at device time `deviceNow`, by the server's clock. */
export function timeLeft(deadlineMs: number, offsetMs: number, deviceNow: number): number {
  return Math.max(0, deadlineMs - (deviceNow + offsetMs));
}

export function clockText(ms: number): string {
  const seconds = Math.ceil(ms / 1000);
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

export function Clock({
  phase,
  deadlineMs,
  serverNowMs,
  timerSeconds,
}: {
  phase: string;
  deadlineMs: number | null;
  serverNowMs: number;
  timerSeconds: number;
}) {
  // the offset is taken when a new answer (a new server time) arrives
  const offset = useMemo(() => serverNowMs - Date.now(), [serverNowMs]);
  const [now, setNow] = useState(() => Date.now());
  const running = phase === "trading" && deadlineMs !== null;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [running]);
  if (phase === "waiting") {
    return (
      <p class="pm-clock pm-clock-waiting">
        <span class="pm-clock-label">Timer:</span> {clockText(timerSeconds * 1000)}, starts when every seat is ready
      </p>
    );
  }
  if (!running) {
    return (
      <p class="pm-clock pm-clock-over">
        <span class="pm-clock-label">Timer:</span> time is up
      </p>
    );
  }
  const left = timeLeft(deadlineMs, offset, now);
  const low = left <= 10_000;
  return (
    <p class={`pm-clock${low ? " pm-clock-low" : ""}`}>
      <span class="pm-clock-label">Time left:</span>{" "}
      <span role="timer" aria-label="Time left on the server's clock" class="pm-clock-time">
        {left > 0 ? clockText(left) : "0:00"}
      </span>
      {left === 0 ? " (time is up: the service is settling the loans)" : low ? " (hurry: under 10 seconds)" : ""}
    </p>
  );
}
