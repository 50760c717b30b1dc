// The server's log: pino, one JSON object a line on stdout, at LOG_LEVEL (debug, info, warn,
// error, silent). In development the same records are written as short readable lines instead.
// The CLI does not use this: its output is for people.
//
// Every HTTP request is logged once by server/index.ts when its answer is finished (method, path
// without the query string, status, duration, the caller's user id when the request resolved
// one). Query strings, headers, cookies and bodies are never logged: they carry tokens.
import { AsyncLocalStorage } from "node:async_hooks";
import { pino, type DestinationStream, type Logger } from "pino";
import { getEnv } from "~/env.server";
import { singleton } from "~/lib/singleton.server";

export type { Logger } from "pino";

/** The request in progress, on every line logged while it is served (see `mixin` below). */
export type RequestLogState = { method: string; path: string; userId?: string };

// One per process: the server opens it around every request and the auth code writes to it.
const requestState = singleton("request-log-state", () => new AsyncLocalStorage<RequestLogState>());

let instance: Logger | undefined;

export function logger(): Logger {
  if (instance) return instance;
  const env = getEnv();
  instance = pino(
    {
      level: env.LOG_LEVEL,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      // An error logged deep in a service still says which request it broke and whose it was.
      mixin: () => {
        const state = requestState.getStore();
        return state ? { ...state } : {};
      },
    },
    env.NODE_ENV === "development" ? readableLines() : undefined,
  );
  return instance;
}

/** Runs `serve` with a fresh state for the request's log line. */
export function withRequestLogState<T>(state: RequestLogState, serve: () => T): T {
  return requestState.run(state, serve);
}

/** Records who the current request is from (called where a request's caller is resolved). */
export function noteRequestUser(userId: string): void {
  const state = requestState.getStore();
  if (state) state.userId = userId;
}

const LEVEL_NAMES: Record<number, string> = {
  10: "TRACE",
  20: "DEBUG",
  30: "INFO ",
  40: "WARN ",
  50: "ERROR",
  60: "FATAL",
};
const OMITTED = new Set(["level", "time", "pid", "msg", "err"]);

/** Development output: `12:04:05 INFO  message key=value`, and an error's stack below it. */
export function formatRecord(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const time = typeof record.time === "string" ? record.time.slice(11, 19) : "";
  const level = LEVEL_NAMES[Number(record.level)] ?? String(record.level);
  const fields = Object.entries(record)
    .filter(([key]) => !OMITTED.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const err = record.err as { stack?: string; message?: string } | undefined;
  const stack = err ? `\n${err.stack ?? err.message ?? ""}` : "";
  return `${time} ${level} ${String(record.msg ?? "")}${fields.length ? ` ${fields.join(" ")}` : ""}${stack}\n`;
}

function readableLines(): DestinationStream {
  return { write: (line: string) => void process.stdout.write(formatRecord(line)) };
}
