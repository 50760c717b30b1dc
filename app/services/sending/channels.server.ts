// The channel the settings choose: the built-in vendor (DELIVERY_CHANNEL=simulated, the default)
// or SMTP (DELIVERY_CHANNEL=smtp with SMTP_URL, MAIL_FROM and PUBLIC_URL), which signs with the
// DKIM key of MAIL_FROM's domain when `crm dkim generate` made one (DATA_DIR/dkim).
import type { Env } from "~/env.server";
import type { DeliveryChannel } from "~/services/sending/channel.server";
import { simulatedChannel } from "~/services/sending/simulated-channel.server";
import { smtpChannel, smtpClientSettings } from "~/services/sending/smtp-channel.server";
import { type DkimSigningKey, loadDkimKey, normaliseDomain } from "~/services/email/dkim-keys.server";

/** The domain of MAIL_FROM's address ("" without MAIL_FROM). */
export function senderDomain(env: Env): string {
  const address = env.mailFrom?.address ?? "";
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

/**
 * The key the SMTP channel signs with: the one stored for MAIL_FROM's domain, or null when none was
 * made (or the domain is not one DKIM can sign for, like localhost). A key file that is there but
 * unusable throws DkimKeyError, which says what to do: mail is not sent unsigned by mistake.
 */
export function dkimKeyFor(env: Env): DkimSigningKey | null {
  let domain: string;
  try {
    domain = normaliseDomain(senderDomain(env));
  } catch {
    return null;
  }
  return loadDkimKey(env.DATA_DIR, domain);
}

/** What the log says about the delivery settings when the server starts. */
export function deliveryStartNotes(env: Env): { level: "info" | "warn" | "error"; message: string }[] {
  const notes: { level: "info" | "warn" | "error"; message: string }[] = env.warnings.map((message) => ({
    level: "warn",
    message,
  }));
  if (env.DELIVERY_CHANNEL !== "smtp") return notes;
  const domain = senderDomain(env);
  let key: DkimSigningKey | null;
  try {
    key = dkimKeyFor(env);
  } catch (error) {
    notes.push({ level: "error", message: `Campaign e-mail cannot be sent: ${(error as Error).message}` });
    return notes;
  }
  notes.push(
    key
      ? {
          level: "info",
          message: `Campaign e-mail from ${domain} will be DKIM-signed (d=${key.domainName}, selector ${key.keySelector}).`,
        }
      : {
          level: "warn",
          message: `Campaign e-mail from ${domain} will NOT be DKIM-signed: no key for ${domain}. Mailbox providers refuse or bin unsigned bulk mail. Make one with: crm dkim generate --domain ${domain}, publish the DNS records it prints, then restart.`,
        },
  );
  return notes;
}

export function createChannel(env: Env, options: { vendorUrl?: string; vendorKey?: string }): DeliveryChannel {
  if (env.DELIVERY_CHANNEL === "smtp") {
    return smtpChannel({
      url: env.SMTP_URL ?? "",
      maxConnections: env.SMTP_POOL,
      dkim: dkimKeyFor(env),
      unsubscribeMailbox: env.MAIL_UNSUBSCRIBE_ADDRESS ?? null,
      client: smtpClientSettings(env),
    });
  }
  const url = env.SIMULATED_VENDOR_URL ?? options.vendorUrl;
  if (!url) throw new Error("The built-in vendor is not running: start the server, or set SIMULATED_VENDOR_URL");
  return simulatedChannel({ url, apiKey: env.SIMULATED_VENDOR_KEY ?? options.vendorKey ?? "" });
}
