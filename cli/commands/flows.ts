// `crm flows list|show|pause|resume`: flows from the admin's side (docs/decisions/0046-flows.md).
// Changes go through the same service as the screens and /api; a running server's flow clock
// moves people on within a second of a resume.
import type { Command } from "commander";
import { z } from "zod";
import { migrateConfiguredDatabase } from "../../app/db/migrate-configured.server.ts";
import { ID_PATTERN } from "../../app/lib/id.ts";
import { flows as storedFlows } from "../../app/models/flows/store.server.ts";
import { getFlow, listFlows, setFlowStatus } from "../../app/services/flows/flows.server.ts";
import { parseCliInput } from "../validate.ts";
import { tenantByEmail } from "./customers.ts";

const FlowId = z
  .string()
  .trim()
  .regex(ID_PATTERN, "The flow id is 24 hexadecimal characters (see `crm flows list --user EMAIL`)");

/** A flow by id, whoever owns it: the CLI is the admin's. */
async function flowById(id: string) {
  const valid = parseCliInput(FlowId, id);
  await migrateConfiguredDatabase();
  const row = await storedFlows.findFlowById(valid);
  if (!row) throw new Error(`No flow ${valid}. List them with: crm flows list --user EMAIL`);
  return row;
}

const rupees = (n: number) => `₹${n.toLocaleString("en-IN", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

export function registerFlowCommands(program: Command) {
  const flows = program.command("flows").description("Look at, pause and resume flows");

  flows
    .command("list")
    .description("A user's flows, newest first: status, people in each, goal reached and its revenue")
    .requiredOption("--user <email>", "the e-mail of the user (tenant)")
    .option("--json", "print JSON instead of a table")
    .action(async (opts: { user: string; json?: boolean }) => {
      const user = await tenantByEmail(opts.user);
      const all = await listFlows(user.id);
      if (opts.json) {
        console.log(JSON.stringify(all, null, 2));
        return;
      }
      if (all.length === 0) {
        console.log(`${user.email} has no flows yet.`);
        return;
      }
      for (const f of all) {
        console.log(
          `${f.id}  ${f.status.padEnd(6)}  in ${String(f.people.active).padStart(7)}  done ${String(f.people.done).padStart(7)}  goal ${String(f.people.converted).padStart(7)}  ${rupees(f.revenue).padStart(14)}  ${f.name}`,
        );
      }
    });

  flows
    .command("show")
    .description("A flow's steps with their figures")
    .argument("<id>", "the flow id")
    .option("--json", "print JSON instead of lines")
    .action(async (id: string, opts: { json?: boolean }) => {
      const row = await flowById(id);
      const flow = await getFlow(row.userId, row.id);
      if (opts.json) {
        console.log(JSON.stringify(flow, null, 2));
        return;
      }
      console.log(`${flow.name} (${flow.status}, version ${flow.version}): starts on ${flow.trigger.event}`);
      console.log(
        `In the flow ${flow.people.active}, finished ${flow.people.done}, reached the goal ${flow.people.converted} (${rupees(flow.revenue)})`,
      );
      for (const p of flow.problems) console.log(`Cannot go live: ${p}`);
      flow.steps.forEach((s, i) => {
        const sends = s.type === "send" ? `, sent ${s.sent}, opened ${s.opened}, clicked ${s.clicked}` : "";
        console.log(
          `${String(i + 1).padStart(2)}. ${s.id} (${s.type}): entered ${s.entered}, here now ${s.waiting}${sends}, converted ${s.converted} (${rupees(s.revenue)})`,
        );
      });
    });

  for (const [name, status, done] of [
    ["pause", "paused", "Paused"],
    ["resume", "live", "Resumed"],
  ] as const) {
    flows
      .command(name)
      .description(`${done.replace(/d$/, "")} a flow`)
      .argument("<id>", "the flow id")
      .action(async (id: string) => {
        const row = await flowById(id);
        const flow = await setFlowStatus(row.userId, row.id, status).catch((error: unknown) => {
          throw new Error(error instanceof Error ? error.message : String(error));
        });
        console.log(`${done}: ${flow.name} is now ${flow.status}.`);
      });
  }
}
