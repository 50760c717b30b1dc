// Progress of the CSV imports running on this server, for the import screen's progress bar.
//
// The screen streams the file into the import inside one request; while that request runs, the
// browser asks GET /customers/import/progress?key=… with a key it chose and sent ahead of the file.
// Entries are scoped to the user and kept for a minute after the import ends. Something this
// short-lived lives in memory; the process bus copies it to every worker of the server, since the
// progress requests may reach another worker than the one saving the file.
import { z } from "zod";
import type { ImportProgress } from "~/services/customer-import.server";
import { publish, subscribeOnce } from "~/services/process-bus.server";

export const ImportProgressKeySchema = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "The progress key is not valid.");

export type ImportProgressState = {
  phase: "reading" | "saving" | "done";
  /** Rows read so far and the file's bytes parsed so far. */
  rows: number;
  bytes: number;
  /** Rows written so far, of `total` good rows (while saving). */
  saved: number;
  total: number;
};

const KEEP_AFTER_DONE_MS = 60_000;
const MAX_TRACKED = 1000;
const TOPIC = "import-progress";
type ProgressUpdate = { id: string; state: ImportProgressState };
const jobs = new Map<string, ImportProgressState>();

/** Keeps the latest state of an import, whichever worker runs it (every update crosses the process bus). */
function remember({ id, state }: ProgressUpdate) {
  if (!jobs.has(id) && jobs.size >= MAX_TRACKED) jobs.delete(jobs.keys().next().value as string);
  const kept = { ...state };
  jobs.set(id, kept);
  if (kept.phase === "done") {
    setTimeout(() => {
      if (jobs.get(id) === kept) jobs.delete(id);
    }, KEEP_AFTER_DONE_MS).unref();
  }
}

// From the start, so the updates of an import another worker began before this one's first are not missed.
subscribeOnce<ProgressUpdate>("import-progress", TOPIC, remember);

const entry = (userId: string, key: string) => `${userId}\n${key}`;

/** Starts tracking an import; returns the onProgress callback for it and the call that ends it. */
export function trackImport(userId: string, key: string) {
  const id = entry(userId, key);
  const state: ImportProgressState = { phase: "reading", rows: 0, bytes: 0, saved: 0, total: 0 };
  const share = () => publish(TOPIC, { id, state } satisfies ProgressUpdate);
  share();
  return {
    onProgress(progress: ImportProgress) {
      if (progress.phase === "reading") {
        state.rows = progress.rows;
        state.bytes = progress.bytes;
      } else if (progress.phase === "saving") {
        state.phase = "saving";
        state.saved = progress.saved;
        state.total = progress.total;
      } else {
        return;
      }
      share();
    },
    finish() {
      state.phase = "done";
      share();
    },
  };
}

/** The progress of the user's import with this key, or null (unknown, another user's, or expired). */
export function importProgress(userId: string, key: string): ImportProgressState | null {
  const state = jobs.get(entry(userId, key));
  return state ? { ...state } : null;
}
