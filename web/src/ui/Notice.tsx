import type { Notice as NoticeData } from "../lib/live";

const HEADINGS: Record<NoticeData["kind"], string> = {
  refused: "Move refused",
  stale: "The table changed before your move arrived",
  error: "Something went wrong",
};

/** A refusal, a stale move or an error, in words (announced to screen readers). */
export function Notice({ notice, onDismiss }: { notice: NoticeData | null; onDismiss: () => void }) {
  return (
    <div class="notice-region" role="alert">
      {notice && (
        <div class={`notice notice-${notice.kind}`}>
          <p class="notice-title">{HEADINGS[notice.kind]}</p>
          <p>
            {notice.kind === "stale"
              ? "Here is the table as it is now: look again and choose."
              : notice.text}
          </p>
          {notice.rule && <blockquote class="rule">{notice.rule}</blockquote>}
          <p class="notice-code">
            <code>{notice.code}</code>{" "}
            <button type="button" class="link-button" onClick={onDismiss}>
              Dismiss
            </button>
          </p>
        </div>
      )}
    </div>
  );
}
