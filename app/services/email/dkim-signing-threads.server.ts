// The pool of DKIM signing threads: the RSA signature that dkim-signature.server.ts prepares is made
// in a thread of its own (jobs/dkim-signing-thread.ts, the thread's entry), so the delivery job's thread
// builds and sends the next messages while the RSA work (about 0.4 ms a message, a third of what
// the thread did per message before) runs on the other core. Requests made in the same turn of the
// event loop go as one message to the thread and come back as one; a thread that stops fails what it
// had (those messages are retried by the engine) and the next request starts a new one. The thread
// keeps the process alive only while it has work.
import { Worker } from "node:worker_threads";
import type { Signer } from "~/services/email/dkim-signature.server";
import { jobEntry } from "~/services/job-entry.server";

export type SignerPool = { sign: Signer; close(): Promise<void> };

type Pending = { resolve: (signature: string) => void; reject: (error: Error) => void };

/** A pool of `threads` signing threads for the PEM key; requests go to them in turn, a batch at a time. */
export function signerPool(privateKeyPem: string, options: { threads?: number; entry?: string } = {}): SignerPool {
  const size = Math.max(1, options.threads ?? 1);
  const workers: (Worker | null)[] = Array.from({ length: size }, () => null);
  const pending = new Map<number, Pending>();
  const owner = new Map<number, Worker>();
  let nextId = 1;
  let turn = 0;
  let queued: [number, string][] = [];
  let flushing = false;
  let closed = false;

  const start = (slot: number): Worker => {
    const worker = new Worker(options.entry ?? jobEntry("dkim-signing-thread"), {
      workerData: { privateKey: privateKeyPem },
      resourceLimits: { maxYoungGenerationSizeMb: 8 },
    });
    worker.unref();
    const fail = (error: Error) => {
      if (workers[slot] === worker) workers[slot] = null;
      for (const [id, w] of owner) {
        if (w !== worker) continue;
        owner.delete(id);
        pending.get(id)?.reject(error);
        pending.delete(id);
      }
    };
    worker.on("message", (answers: [number, string | null, string?][]) => {
      for (const [id, signature, problem] of answers) {
        const waiting = pending.get(id);
        pending.delete(id);
        owner.delete(id);
        if (!waiting) continue;
        if (signature === null) waiting.reject(new Error(`DKIM signing failed: ${problem}`));
        else waiting.resolve(signature);
      }
      if (pending.size === 0) for (const w of workers) w?.unref();
    });
    worker.on("error", (error) => fail(new Error(`The DKIM signing thread failed: ${error.message}`)));
    worker.on("exit", (code) => fail(new Error(`The DKIM signing thread stopped (exit code ${code}).`)));
    return worker;
  };

  const flush = () => {
    flushing = false;
    const batch = queued;
    queued = [];
    if (batch.length === 0) return;
    const slot = turn++ % size;
    const worker = workers[slot] ?? (workers[slot] = start(slot));
    worker.ref();
    for (const [id] of batch) owner.set(id, worker);
    worker.postMessage(batch);
  };

  const sign: Signer = (data) => {
    if (closed) return Promise.reject(new Error("The DKIM signer is closed."));
    const id = nextId++;
    const answer = new Promise<string>((resolve, reject) => pending.set(id, { resolve, reject }));
    queued.push([id, data]);
    if (!flushing) {
      flushing = true;
      setImmediate(flush);
    }
    return answer;
  };

  return {
    sign,
    async close() {
      closed = true;
      await Promise.all(
        workers.map(async (w, i) => {
          workers[i] = null;
          if (w) await w.terminate();
        }),
      );
    },
  };
}
