// One server instance in a process of its own, for the tests of what crosses instances sharing a
// PostgreSQL database (docs/decisions/0034-many-instances.md). Started by startInstance()
// (tests/helpers/instances.ts) with DATABASE_URL naming the test's database; it obeys commands
// sent over the IPC channel and answers each, and it forwards what it hears on the bus.
import { pino } from "pino";
import { type HeldLock, runOnceAcrossInstances, tryAdvisoryLock } from "~/db/advisory-lock.server";
import { openNotifyChannel } from "~/db/listen.server";
import { getEnv } from "~/env.server";
import { type InstanceLink, linkInstances, publish, subscribe } from "~/services/process-bus.server";
import type { InstanceCommand, InstanceReply } from "./instances";

const send = (message: InstanceReply) => process.send?.(message);
// The log's lines go to stdout, which the test keeps and shows when something fails.
const log = pino({ level: "debug" });

let link: InstanceLink | undefined;
const locks = new Map<string, HeldLock>();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function run(command: InstanceCommand): Promise<unknown> {
  switch (command.cmd) {
    case "link": {
      link = linkInstances(openNotifyChannel, { url: getEnv().databaseUrl, log });
      await link.channel.ready();
      return { instanceId: link.instanceId, backendPid: link.channel.backendPid };
    }
    case "backendPid":
      return { backendPid: link?.channel.backendPid ?? null };
    case "subscribe":
      subscribe(command.topic, (payload) => send({ event: "message", topic: command.topic, payload, at: Date.now() }));
      return {};
    case "publish":
      for (const payload of command.payloads) publish(command.topic, payload);
      await link?.channel.flushed();
      return {};
    case "notify": {
      const { notify } = await import("~/services/notifications.server");
      return notify(command.userId, { type: "SYSTEM", title: command.title });
    }
    case "endSessions": {
      const { endSessions } = await import("~/services/users.server");
      await endSessions(command.userId);
      await link?.channel.flushed();
      return {};
    }
    case "trackImport": {
      const { trackImport } = await import("~/services/import-progress.server");
      const tracked = trackImport(command.userId, command.key);
      tracked.onProgress({ phase: "reading", rows: command.rows, bytes: command.rows * 100 });
      await link?.channel.flushed();
      return {};
    }
    case "wake": {
      const { wakeDelivery } = await import("~/services/sending/wake.server");
      for (let i = 0; i < command.count; i++) wakeDelivery();
      // The last of a burst goes out at the end of its 50 ms window.
      await sleep(100);
      await link?.channel.flushed();
      return {};
    }
    case "lock": {
      const lock = await tryAdvisoryLock(getEnv().databaseUrl, command.name);
      if (lock) locks.set(command.name, lock);
      return { got: lock !== null };
    }
    case "release":
      await locks.get(command.name)?.release();
      locks.delete(command.name);
      return {};
    case "runJob": {
      const result = await runOnceAcrossInstances(command.name, async () => {
        await sleep(command.workMs);
        return process.pid;
      });
      return result;
    }
    case "exit":
      await link?.close();
      for (const lock of locks.values()) await lock.release();
      setImmediate(() => process.exit(0));
      return {};
  }
}

process.on("message", (message: { id: number; command: InstanceCommand }) => {
  run(message.command).then(
    (result) => send({ reply: message.id, result }),
    (error: unknown) => send({ reply: message.id, error: String((error as Error)?.stack ?? error) }),
  );
});
// A parent that went away takes this instance with it.
process.on("disconnect", () => process.exit(0));
send({ event: "started" });
