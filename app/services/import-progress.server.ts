// Progress of the CSV imports running in this process, for the import screen's progress bar.
//
// The screen streams the file into the import inside one request; while that request runs, the
// browser asks GET /customers/import/progress?key=… with a key it chose and sent ahead of the file.
// Entries are scoped to the user and kept for a minute after the import ends. One process serves
// the product (DESIGN.md), so memory is the right place for something this short-lived.
import { z } from "zod";
import type { ImportProgress } from "~/services/customer-import.server";

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
const globalForProgress = globalThis as unknown as { __crmImportProgress?: Map<string, ImportProgressState> };

function registry() {
  globalForProgress.__crmImportProgress ??= new Map();
  return globalForProgress.__crmImportProgress;
}

const entry = (userId: string, key: string) => `${userId}\n${key}`;

/** Starts tracking an import; returns the onProgress callback for it and the call that ends it. */
export function trackImport(userId: string, key: string) {
  const jobs = registry();
  if (jobs.size >= MAX_TRACKED) jobs.delete(jobs.keys().next().value as string);
  const id = entry(userId, key);
  const state: ImportProgressState = { phase: "reading", rows: 0, bytes: 0, saved: 0, total: 0 };
  jobs.set(id, state);
  return {
    onProgress(progress: ImportProgress) {
      if (progress.phase === "reading") {
        state.rows = progress.rows;
        state.bytes = progress.bytes;
      } else if (progress.phase === "saving") {
        state.phase = "saving";
        state.saved = progress.saved;
        state.total = progress.total;
      }
    },
    finish() {
      state.phase = "done";
      setTimeout(() => {
        if (jobs.get(id) === state) jobs.delete(id);
      }, KEEP_AFTER_DONE_MS).unref();
    },
  };
}

/** The progress of the user's import with this key, or null (unknown, another user's, or expired). */
export function importProgress(userId: string, key: string): ImportProgressState | null {
  const state = registry().get(entry(userId, key));
  return state ? { ...state } : null;
}
