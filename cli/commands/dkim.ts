import path from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { getEnv } from "../../app/env.server.ts";
import {
  DkimKeyError,
  formatDnsRecords,
  generateDkimKey,
  normaliseDomain,
  normaliseSelector,
  readDkimKey,
} from "../../app/services/email/dkim-keys.server.ts";
import { parseCliInput } from "../validate.ts";

/** A zod field from one of the key module's name checks, its message prefixed with the option. */
const checked = (option: string, normalise: (value: string) => string) =>
  z.string().transform((value, ctx) => {
    try {
      return normalise(value);
    } catch (error) {
      if (!(error instanceof DkimKeyError)) throw error;
      ctx.addIssue({ code: "custom", message: `${option}: ${error.message}` });
      return z.NEVER;
    }
  });

const Domain = checked("--domain", normaliseDomain);
const Selector = checked("--selector", normaliseSelector);

/** The data directory of this instance (DATA_DIR), made private as the server keeps it. */
const dataDir = () => path.resolve(getEnv().DATA_DIR);

/** A note when the key is not for the domain the server sends from. */
function mailFromNote(domain: string): string | null {
  const address = getEnv().mailFrom?.address;
  if (!address) return null;
  const fromDomain = address.slice(address.lastIndexOf("@") + 1);
  let normalised: string;
  try {
    normalised = normaliseDomain(fromDomain);
  } catch {
    return null;
  }
  return normalised === domain
    ? null
    : `Note: MAIL_FROM is at ${normalised}, not ${domain}: mail is signed only with the key of MAIL_FROM's domain.`;
}

export function registerDkimCommands(program: Command) {
  const dkim = program
    .command("dkim")
    .description("DKIM signing keys for your sending domain, and the DNS records (DKIM, SPF, DMARC) to publish");

  dkim
    .command("generate")
    .description(
      "Make an RSA-2048 DKIM key for a domain, store it in DATA_DIR/dkim (readable only by this user) and print the DNS records",
    )
    .requiredOption("--domain <domain>", "the domain of your From address, like example.com")
    .option("--selector <selector>", "the DKIM selector (letters, digits, hyphens, dots); default crm + year and month")
    .option("--force", "replace the domain's existing key (breaks DKIM for mail in flight until DNS is updated)")
    .action((opts: { domain: string; selector?: string; force?: boolean }) => {
      const input = parseCliInput(z.object({ domain: Domain, selector: Selector.optional() }), {
        domain: opts.domain,
        selector: opts.selector,
      });
      const made = generateDkimKey(dataDir(), input.domain, { selector: input.selector, force: opts.force });
      console.log(
        `Made a DKIM key for ${made.key.domain} (selector ${made.key.selector}), stored in ${made.file} (readable only by this user).`,
      );
      if (made.replaced) {
        console.log(
          made.replaced.selector === made.key.selector
            ? `It replaced the earlier key of the same selector ${made.key.selector}: until DNS has the new record below, ` +
                `and for mail already on its way, DKIM checks fail. Next time use a new --selector so both records can be published side by side.`
            : `It replaced the key with selector ${made.replaced.selector}: publish the new record below now (mail signed with ` +
                `the new key fails DKIM checks until DNS has it), and keep the record of ${made.replaced.selector} for a few days ` +
                `so mail already on its way still verifies.`,
        );
      }
      console.log("");
      console.log(formatDnsRecords(made.key));
      const note = mailFromNote(made.key.domain);
      if (note) console.log(`\n${note}`);
    });

  dkim
    .command("show")
    .description("Print the DNS records (DKIM, SPF, DMARC) for a domain's stored DKIM key again")
    .requiredOption("--domain <domain>", "the domain of your From address, like example.com")
    .action((opts: { domain: string }) => {
      const input = parseCliInput(z.object({ domain: Domain }), { domain: opts.domain });
      const key = readDkimKey(dataDir(), input.domain);
      if (!key) {
        throw new Error(
          `No DKIM key for ${input.domain} in ${path.join(dataDir(), "dkim")}. Make one with: crm dkim generate --domain ${input.domain}`,
        );
      }
      console.log(formatDnsRecords(key));
      const note = mailFromNote(key.domain);
      if (note) console.log(`\n${note}`);
    });
}
