import type { Command } from "commander";
import { z } from "zod";
import { migrateConfiguredDatabase } from "../../app/db/migrate-configured.server.ts";
import { findUserByEmail, listUsers, setPasswordHash, upsertLocalUser } from "../../app/services/users.server.ts";
import { hashPassword, passwordProblem } from "../../app/services/passwords.server.ts";
import { issueToken } from "../../app/services/token.server.ts";
import { passwordLink } from "../../app/services/password-link.server.ts";
import { PASSWORD_LINK_DAYS } from "../../app/lib/password-link.ts";
import { singleLine } from "../../app/schemas/text.ts";
import { readNewPassword } from "../prompt.ts";
import { parseCliInput } from "../validate.ts";

const Email = z.string().trim().toLowerCase().email("--email must be an e-mail address like ops@example.com");

/** A new password for this account, by the same rules as a sign-up on /login. */
async function newPassword(who: { email: string; name: string }): Promise<string> {
  const password = await readNewPassword();
  const problem = await passwordProblem(password, who);
  if (problem) throw new Error(`Password refused: ${problem}`);
  return password;
}

export function registerUserCommands(program: Command) {
  const users = program.command("users").description("Manage user accounts");

  users
    .command("create")
    .description("Create a local user (or report the existing one with that e-mail)")
    .requiredOption("--email <email>", "the user's e-mail address")
    .requiredOption("--name <name>", "the user's display name")
    .option("--password", "ask for the user's password (typed without echo, or the first line of stdin)")
    .action(async (opts: { email: string; name: string; password?: boolean }) => {
      const input = parseCliInput(
        z.object({
          email: Email,
          name: singleLine(z.string().trim(), "--name").min(1, "--name must not be empty").max(100),
        }),
        { email: opts.email, name: opts.name },
      );
      const password = opts.password ? await newPassword(input) : null;
      await migrateConfiguredDatabase();
      const existing = await findUserByEmail(input.email);
      const user =
        existing ?? (await upsertLocalUser({ ...input, passwordHash: password ? await hashPassword(password) : null }));
      console.log(`${existing ? "Exists" : "Created"}: ${user.id}  ${user.email}  ${user.displayName}`);
      if (existing && password) console.log(`Its password was not changed. Use: crm users set-password ${user.email}`);
      if (!existing && !password) {
        console.log(
          `No password yet. Send them a link to set one: crm users link ${user.email} (or set it here: crm users set-password ${user.email})`,
        );
      }
    });

  users
    .command("set-password")
    .description(
      "Set a user's password (typed without echo, or the first line of stdin); ends their sessions and tokens",
    )
    .argument("<email>", "the user's e-mail address")
    .action(async (email: string) => {
      const input = parseCliInput(z.object({ email: Email }), { email });
      await migrateConfiguredDatabase();
      const user = await findUserByEmail(input.email);
      if (!user)
        throw new Error(
          `No user with e-mail ${input.email}. Create one with: crm users create --email ${input.email} --name NAME --password`,
        );
      const password = await newPassword({ email: user.email, name: user.displayName });
      await setPasswordHash(user.id, await hashPassword(password));
      console.log(`Password set for ${user.email}. Their earlier sessions and tokens no longer work.`);
    });

  users
    .command("link")
    .description(
      `Print a one-time link that lets the user set their password (works once, for ${PASSWORD_LINK_DAYS} days; the owner's Users screen makes the same)`,
    )
    .argument("<email>", "the user's e-mail address")
    .action(async (email: string) => {
      const input = parseCliInput(z.object({ email: Email }), { email });
      await migrateConfiguredDatabase();
      const user = await findUserByEmail(input.email);
      if (!user)
        throw new Error(
          `No user with e-mail ${input.email}. Create one with: crm users create --email ${input.email} --name NAME`,
        );
      console.log(await passwordLink(user.id));
    });

  users
    .command("list")
    .description("List all users")
    .option("--json", "print JSON instead of a table")
    .action(async (opts: { json?: boolean }) => {
      await migrateConfiguredDatabase();
      const all = await listUsers();
      if (opts.json) {
        console.log(
          JSON.stringify(
            all.map((u) => ({
              id: u.id,
              email: u.email,
              name: u.displayName,
              provider: u.provider,
              createdAt: u.createdAt,
            })),
            null,
            2,
          ),
        );
        return;
      }
      if (all.length === 0) {
        console.log("No users yet. Create one with: crm users create --email you@example.com --name 'Your Name'");
        return;
      }
      for (const u of all) {
        console.log(`${u.id}  ${u.email.padEnd(32)}  ${u.provider.padEnd(6)}  ${u.displayName}`);
      }
    });

  users
    .command("token")
    .description("Print a bearer token for the /api for the user with this e-mail")
    .argument("<email>", "the user's e-mail address")
    .option("--hours <hours>", "how long the token is valid, in hours", "168")
    .action(async (email: string, opts: { hours: string }) => {
      const input = parseCliInput(
        z.object({
          email: Email,
          hours: z.coerce
            .number({ message: "--hours must be a number of hours, like 24" })
            .int("--hours must be a whole number")
            .min(1, "--hours must be at least 1")
            .max(24 * 365, "--hours must be at most 8760"),
        }),
        { email, hours: opts.hours },
      );
      await migrateConfiguredDatabase();
      const user = await findUserByEmail(input.email);
      if (!user)
        throw new Error(
          `No user with e-mail ${input.email}. Create one with: crm users create --email ${input.email} --name NAME`,
        );
      console.log(await issueToken(user.id, input.hours));
    });
}
