// A lesson's calls and its live stream, typed by the contract. The teacher's credential
// (the lesson's teacher token) goes in the Authorization header, so the stream is read
// with fetch, not EventSource (which cannot send one).
import type { Answer } from "./api";
import { call } from "./api";
import type { Schemas } from "./contract";
import type { Frame } from "./sse";
import { readStream } from "./sse";

export type Lesson = Schemas["Lesson"];
export type LessonTable = Schemas["LessonTable"];
export type LessonSeat = Schemas["LessonSeat"];
export type LessonLti = Schemas["LessonLti"];

const lessonUrl = (id: string): string => `/v1/lessons/${encodeURIComponent(id)}`;

export const getLesson = (id: string, token: string): Promise<Answer<Lesson>> =>
  call("GET", lessonUrl(id), { token });

/** A lesson opened from an LMS: its learners not joined yet, and the grades sent. */
export const getLessonLti = (id: string, token: string): Promise<Answer<LessonLti>> =>
  call("GET", `${lessonUrl(id)}/lti`, { token });

export const startLesson = (id: string, token: string): Promise<Answer<Lesson>> =>
  call("POST", `${lessonUrl(id)}/start`, { token });

export const endLesson = (id: string, token: string): Promise<Answer<Lesson>> =>
  call("POST", `${lessonUrl(id)}/end`, { token });

export const joinLesson = (
  code: string,
  name: string,
  rejoin: string | null,
): Promise<Answer<LessonSeat>> =>
  call("POST", "/v1/join", { body: rejoin ? { code, name, rejoin } : { code, name } });

/** One frame of `GET /v1/lessons/{id}/events`: its event name and its JSON data. */
export type LessonFrame = Frame;

/** Follows the lesson's stream until `stop()`: every frame to `onFrame`, and whether it
 * is connected to `onConnection`. A stream that ends (the server's time limit) or
 * breaks is opened again after a pause; every `hello` is a fresh start. */
export function followLesson(
  id: string,
  token: string,
  onFrame: (frame: LessonFrame) => void,
  onConnection: (live: boolean) => void,
): { stop(): void } {
  let stopped = false;
  let controller: AbortController | null = null;
  let pause = 1000;

  async function once(): Promise<boolean> {
    controller = new AbortController();
    let ended = false;
    const end = await readStream(
      `${lessonUrl(id)}/events`,
      token,
      controller.signal,
      () => {
        onConnection(true);
        pause = 1000;
      },
      (frame) => {
        onFrame(frame);
        if (frame.event === "lesson" && frame.data["type"] === "lesson_ended") ended = true;
      },
    );
    if (end.problem !== null || end.status >= 400) return end.status >= 500;
    onConnection(false);
    return !ended;
  }

  async function loop(): Promise<void> {
    while (!stopped) {
      let again = true;
      try {
        again = await once();
      } catch {
        onConnection(false);
      }
      if (!again || stopped) return;
      await new Promise((done) => setTimeout(done, pause));
      pause = Math.min(pause * 2, 10000);
    }
  }

  void loop();
  return {
    stop() {
      stopped = true;
      controller?.abort();
    },
  };
}
