// The bench's side of the local SMTP server (bench/helpers/smtp-sink-process.ts): starts it in a
// process of its own with an IPC channel, waits for its port and asks it for its counts. Used by
// the smtp and smtp-writers sections and by bench/standalone/smtp-clients-cpu.ts.
import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";
import type { SinkReport } from "./smtp-sink-process.ts";

export type { SinkReport };

export type SmtpSink = {
  process: ChildProcess;
  /** The sink's counts so far (messages, DKIM signatures, Message-IDs, its CPU time). */
  report: () => Promise<SinkReport>;
};

/** Starts the sink; its port once it accepts connections (rejects if the process stops first). */
export function startSmtpSink(cwd?: string): { sink: SmtpSink; port: Promise<number> } {
  const child = fork(path.join(import.meta.dirname, "smtp-sink-process.ts"), [], {
    cwd,
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const report = (): Promise<SinkReport> => {
    const answer = new Promise<SinkReport>((resolve) => {
      const listener = (m: { type?: string }) => {
        if (m?.type !== "report") return;
        child.off("message", listener);
        resolve(m as SinkReport);
      };
      child.on("message", listener);
    });
    child.send({ type: "report" });
    return answer;
  };
  const port = new Promise<number>((resolve, reject) => {
    child.on("message", (m: { type?: string; port?: number }) => m?.type === "listening" && resolve(m.port ?? 0));
    child.once("exit", (code) => reject(new Error(`the SMTP sink stopped (exit code ${code})`)));
  });
  // A sink that stops after it listened is seen by its report never coming: no unhandled rejection.
  port.catch(() => undefined);
  return { sink: { process: child, report }, port };
}
