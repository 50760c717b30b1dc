// Who a tenant's campaign e-mail comes from: the From header of every message and the sender the
// public unsubscribe page names. The address is always MAIL_FROM's (the domain whose SPF, DKIM and
// DMARC records vouch for the mail); the display name is the tenant's: the profile's company when
// set, else MAIL_FROM's display name, else the tenant's display name. Replies go to MAIL_REPLY_TO
// when it is set.
//
// Works on the thread that answers requests (the read connection) and in the delivery job's
// worker thread, which passes its own connection; the engine asks once per campaign.
import type { AnyConnection } from "~/models/transaction/store.server";
import { getEnv } from "~/env.server";
import { users } from "~/models/users/store.server";

export type Sender = {
  name: string;
  address: string;
  replyTo: string | null;
  /** The brand's postal address, else MAIL_POSTAL_ADDRESS, for the messages' footer ("" or absent when neither is set). */
  postalAddress?: string;
};

/** Line breaks and other control characters never reach a header: they become spaces. */
export function headerSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
}

/**
 * The sender of `userId`'s campaigns. Without MAIL_FROM (the built-in vendor needs none) the
 * address is the tenant's own e-mail; for a tenant who no longer exists, MAIL_FROM's name.
 */
export async function senderOf(userId: string, connection?: AnyConnection): Promise<Sender> {
  const env = getEnv();
  const profile = await users.findSenderProfile(userId, connection);
  const mailFrom = env.mailFrom;
  const name = [profile?.company, mailFrom?.name, profile?.displayName]
    .map((candidate) => headerSafe(candidate ?? ""))
    .find((candidate) => candidate !== "");
  const address = mailFrom?.address ?? profile?.email ?? "";
  return {
    name: name ?? "",
    address,
    replyTo: env.MAIL_REPLY_TO ?? null,
    postalAddress: headerSafe(profile?.postalAddress ?? "") || (env.MAIL_POSTAL_ADDRESS ?? ""),
  };
}
