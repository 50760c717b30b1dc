// The owner's Users screen: who has an account on this install, adding a person (an account of
// their own, empty, with no password yet) and the one-time link that lets them set one. Accounts
// stay separate tenants: the owner sees names and e-mails here, never another account's data.
import { ApiError } from "~/lib/api.server";
import type { AddPersonInput } from "~/schemas/person";
import { passwordLink } from "~/services/password-link.server";
import { isOwner } from "~/services/sign-up.server";
import { findUserByEmail, getUser, listUsers, upsertLocalUser } from "~/services/users.server";

export type Person = {
  id: string;
  name: string;
  email: string;
  createdAt: string;
  owner: boolean;
  /** How they sign in: "password", "google", or "none yet" (added, never signed in). */
  signIn: "password" | "google" | "none yet";
};

/** The owner's view of the install's accounts, oldest (the owner) first; anyone else gets a 404. */
export async function listPeople(ownerId: string): Promise<Person[]> {
  await requireOwner(ownerId);
  const users = await listUsers();
  return users.map((user, index) => ({
    id: user.id,
    name: user.displayName,
    email: user.email,
    createdAt: user.createdAt.toISOString(),
    owner: index === 0,
    signIn: user.passwordHash ? "password" : user.googleId ? "google" : "none yet",
  }));
}

/** Adds a person's account and returns the link that lets them set its password. */
export async function addPerson(ownerId: string, input: AddPersonInput): Promise<{ person: string; link: string }> {
  await requireOwner(ownerId);
  if (await findUserByEmail(input.email)) {
    throw new ApiError("conflict", "An account already uses this e-mail", {
      email: "An account already uses this e-mail: make a new link for it in the list below",
    });
  }
  const user = await upsertLocalUser({ email: input.email, name: input.name, passwordHash: null });
  return { person: user.displayName, link: await passwordLink(user.id) };
}

/**
 * A new one-time link for an account nobody has signed in to yet (its link was lost or expired).
 * An account in use keeps its own password: a link for it would let the owner sign in as that
 * person and see their tenant's data. A forgotten password is reset by the server's
 * administrator (`crm users set-password`, `crm users link`).
 */
export async function newPasswordLink(ownerId: string, userId: string): Promise<{ person: string; link: string }> {
  await requireOwner(ownerId);
  const user = await getUser(userId);
  if (!user) throw new ApiError("not_found", "User not found");
  if (user.passwordHash || user.googleId)
    throw new ApiError(
      "conflict",
      `${user.displayName} already signs in. A forgotten password is reset by the server's administrator: crm users set-password ${user.email}`,
    );
  return { person: user.displayName, link: await passwordLink(user.id) };
}

/** Only the owner manages accounts; to anyone else the screen does not exist. */
async function requireOwner(userId: string) {
  if (!(await isOwner(userId))) throw new ApiError("not_found", "Page not found");
}
