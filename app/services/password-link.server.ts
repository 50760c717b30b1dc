// The one-time link that lets a person set their account's password: the owner gets one on the
// Users screen when adding someone (or for anyone who forgot theirs), an admin from
// `crm users link`. The link is a sealed token (~/services/public-token.server) naming the
// account, its session version when the link was made and when it stops working; setting the
// password moves the session version on, which ends the link along with every session before it.
import { getEnv } from "~/env.server";
import { ApiError } from "~/lib/api.server";
import { PASSWORD_LINK_DAYS } from "~/lib/password-link";
import { openToken, sealToken } from "~/services/public-token.server";
import { hashPassword, passwordProblem } from "~/services/passwords.server";
import { currentSessionVersion, getUser, setPasswordHashAtVersion, type User } from "~/services/users.server";

type LinkPayload = { u: string; v: number; e: number };

/** The absolute address of a new one-time link for the user. */
export async function passwordLink(userId: string): Promise<string> {
  const version = await currentSessionVersion(userId);
  if (version === null) throw new ApiError("not_found", "User not found");
  const payload: LinkPayload = { u: userId, v: version, e: Date.now() + PASSWORD_LINK_DAYS * 86_400_000 };
  const token = sealToken("set-password", Buffer.from(JSON.stringify(payload)));
  return `${getEnv().publicUrl}/set-password/${token}`;
}

/** The account a link still works for, or null (altered, expired, already used, account gone). */
export async function openPasswordLink(token: string): Promise<User | null> {
  return (await openLink(token))?.user ?? null;
}

/** Sets the password through a link: the account signed in with it, or a refusal for the form. */
export async function setPasswordThroughLink(
  token: string,
  password: string,
): Promise<{ user: User } | { ended: true } | { problem: string }> {
  const opened = await openLink(token);
  if (!opened) return { ended: true };
  const { user, version } = opened;
  const problem = await passwordProblem(password, { email: user.email, name: user.displayName });
  if (problem) return { problem };
  // Written only while the version is still the link's: a second use at the same moment has ended.
  const updated = await setPasswordHashAtVersion(user.id, version, await hashPassword(password));
  return updated ? { user: updated } : { ended: true };
}

/** A link's account and the session version it was made at, while it still works. */
async function openLink(token: string): Promise<{ user: User; version: number } | null> {
  const raw = openToken("set-password", token);
  if (!raw) return null;
  let payload: unknown;
  try {
    payload = JSON.parse(raw.toString("utf8"));
  } catch {
    return null;
  }
  if (!isPayload(payload) || payload.e <= Date.now()) return null;
  const user = await getUser(payload.u);
  if (!user || (await currentSessionVersion(user.id)) !== payload.v) return null;
  return { user, version: payload.v };
}

function isPayload(value: unknown): value is LinkPayload {
  if (!value || typeof value !== "object") return false;
  const { u, v, e } = value as Record<string, unknown>;
  return typeof u === "string" && typeof v === "number" && typeof e === "number";
}
