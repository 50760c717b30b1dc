// Users: created or updated at sign-in (Google or local), read by the shell, edited on /profile.
import { toOneLine } from "~/schemas/text";
import { newId } from "~/lib/id";
import { ApiError } from "~/lib/api.server";
import { type User, users } from "~/models/users/store.server";
import type { ProfileInput } from "~/schemas/profile";
import { notify } from "~/services/notifications.server";
import { publish, subscribeOnce } from "~/services/process-bus.server";
import { keepSignUp, SignUpClosed, signUpAllowed } from "~/services/sign-up.server";
import type { PublicUser } from "~/lib/dto";

export type { PublicUser, User };

export function toPublicUser(user: User): PublicUser {
  return {
    _id: user.id,
    id: user.id,
    displayName: user.displayName,
    email: user.email,
    profileImage: user.profileImage,
    firstName: user.firstName,
    lastName: user.lastName,
    phone: user.phone,
    company: user.company,
    position: user.position,
    provider: user.provider,
    createdAt: user.createdAt.toISOString(),
  };
}

// Callers resolved in the last moments, so a program sending many requests does not read its
// user row for each: measured, that read was ~47 µs of the ~350 µs GET /api/customers/{id} costs
// at 50 connections. A change made here is published on the process bus, so every worker forgets
// the row at once; a change made by another program (the CLI) shows within USER_CACHE_MS.
const USER_CACHE_MS = 2_000;
const MAX_CACHED_USERS = 10_000;
/** The process-bus topic that makes every worker forget a user row (its payload is the id). */
export const USER_CHANGED = "user-changed";
const cachedUsers = new Map<string, { user: User; until: number }>();
subscribeOnce<string>("user-cache", USER_CHANGED, (id) => cachedUsers.delete(id));

/** Drops the user from every worker's cache (after any change to their row). */
function userChanged<T extends { id: string }>(user: T): T {
  publish(USER_CHANGED, user.id);
  return user;
}

/**
 * The user by id: every page and /api request resolves its caller here, so the answer is kept for
 * USER_CACHE_MS (the read itself is a prepared statement: findUserById in ~/models/users/).
 */
export async function getUser(id: string): Promise<User | null> {
  const now = Date.now();
  const cached = cachedUsers.get(id);
  if (cached && cached.until > now) return cached.user;
  const user = await users.findUserById(id);
  if (!user) {
    cachedUsers.delete(id);
    return null;
  }
  if (cachedUsers.size >= MAX_CACHED_USERS) cachedUsers.clear();
  cachedUsers.set(id, { user, until: now + USER_CACHE_MS });
  return user;
}

export function findUserByEmail(email: string): Promise<User | null> {
  return users.findUserWithEmail(email.toLowerCase());
}

export function listUsers(): Promise<User[]> {
  return users.listUsersOldestFirst();
}

async function welcome(user: User) {
  await notify(user.id, {
    type: "SYSTEM",
    title: "Welcome to the CRM",
    details: `Hello ${user.displayName}! Add customers, build segments and launch your first campaign.`,
  });
}

export type GoogleProfile = {
  googleId: string;
  email: string;
  /** Whether Google says it verified this address. */
  emailVerified: boolean;
  displayName: string;
  firstName?: string;
  lastName?: string;
  profileImage?: string | null;
};

/**
 * A Google sign-in whose e-mail belongs to an account it may not open: the account's address was
 * never verified (anyone can type any address on /profile or at local sign-up), or the account is
 * already tied to another Google id.
 */
export class GoogleLinkRefused extends Error {
  constructor() {
    super("An account with this e-mail exists and cannot be linked to this Google sign-in");
    this.name = "GoogleLinkRefused";
  }
}

/**
 * The account of a Google sign-in: found by Google id; else linked by e-mail only to an account
 * whose e-mail is verified (and Google verified it too); else created. Refreshes what Google says.
 */
export async function upsertGoogleUser(google: GoogleProfile): Promise<User> {
  // Names reach mail headers (a From name): Google's are made one line like every typed name.
  const profile: GoogleProfile = {
    ...google,
    displayName: toOneLine(google.displayName),
    firstName: google.firstName === undefined ? undefined : toOneLine(google.firstName),
    lastName: google.lastName === undefined ? undefined : toOneLine(google.lastName),
  };
  const email = profile.email.toLowerCase();
  const byGoogleId = await users.findUserWithGoogleId(profile.googleId);
  const existing = byGoogleId ?? (await users.findUserWithEmail(email));
  // An account the owner added (or `crm users create` made) that has never been signed in to has
  // no password and no Google id: Google's verified address is then the invitee's own sign-in.
  const invited = existing !== null && !existing.passwordHash && !existing.googleId && existing.provider === "local";
  if (
    existing &&
    !byGoogleId &&
    !(invited && profile.emailVerified) &&
    (!existing.emailVerified || !profile.emailVerified || existing.googleId)
  ) {
    throw new GoogleLinkRefused();
  }
  if (existing) {
    return userChanged(
      await users.updateUser(existing.id, {
        googleId: profile.googleId,
        provider: "google",
        // Google vouches for the address only while the account still has the one Google sent.
        emailVerified: existing.emailVerified || (profile.emailVerified && existing.email === email),
        displayName: profile.displayName || existing.displayName,
        profileImage: profile.profileImage ?? existing.profileImage,
        firstName: existing.firstName || profile.firstName || "",
        lastName: existing.lastName || profile.lastName || "",
      }),
    );
  }
  if (!(await signUpAllowed())) throw new SignUpClosed();
  const user = await users.insertUser({
    id: newId(),
    email,
    googleId: profile.googleId,
    provider: "google",
    emailVerified: profile.emailVerified,
    displayName: profile.displayName || email,
    firstName: profile.firstName ?? "",
    lastName: profile.lastName ?? "",
    profileImage: profile.profileImage ?? null,
  });
  if (!(await keepSignUp(user.id))) throw new SignUpClosed();
  await welcome(user);
  return user;
}

/**
 * Local sign-up and `crm users create`: reuses the account with that e-mail (its password is not
 * touched), else creates one with the given password hash (none: it cannot sign in locally until
 * `crm users set-password`).
 */
export async function upsertLocalUser(input: {
  email: string;
  name: string;
  passwordHash?: string | null;
}): Promise<User> {
  const email = input.email.toLowerCase();
  const existing = await users.findUserWithEmail(email);
  if (existing) return existing;
  const [firstName, ...rest] = input.name.trim().split(/\s+/);
  const user = await users.insertUser({
    id: newId(),
    email,
    provider: "local",
    passwordHash: input.passwordHash ?? null,
    displayName: input.name.trim(),
    firstName: firstName ?? "",
    lastName: rest.join(" "),
  });
  await welcome(user);
  return user;
}

/** Saves the profile; `timeZone` only when given (the API's PUT leaves it as it is). */
export async function updateProfile(userId: string, input: ProfileInput & { timeZone?: string | null }): Promise<User> {
  const email = input.email.toLowerCase();
  const before = await users.findUserEmail(userId);
  if (await users.emailUsedByAnother(email, userId)) {
    throw new ApiError("conflict", "Another account already uses this e-mail", {
      email: "Another account already uses this e-mail",
    });
  }
  const displayName = [input.firstName, input.lastName].filter(Boolean).join(" ");
  return userChanged(
    // A new address is unverified until something verifies it (Google, at its next sign-in).
    await users.updateUser(userId, {
      ...input,
      email,
      ...(displayName ? { displayName } : {}),
      ...(before !== email ? { emailVerified: false } : {}),
    }),
  );
}

/** Sets a local account's password and ends every session and token issued before. */
export async function setPasswordHash(userId: string, passwordHash: string): Promise<User> {
  return userChanged(await users.setPasswordAndEndSessions(userId, passwordHash));
}

/**
 * setPasswordHash for a one-time link made at session version `version`: null, and nothing
 * changed, once the version moved on (the link was used, even by a request a moment earlier).
 */
export async function setPasswordHashAtVersion(userId: string, version: number, passwordHash: string) {
  const user = await users.setPasswordAtVersion(userId, version, passwordHash);
  return user ? userChanged(user) : null;
}

/** Logout: every session and token the user holds stops working, on every worker at once. */
export async function endSessions(userId: string): Promise<void> {
  await users.bumpSessionVersion(userId);
  publish(USER_CHANGED, userId);
}

/** The user's session version as stored now (not the cached row): what a new session carries. */
export async function currentSessionVersion(userId: string): Promise<number | null> {
  return users.readSessionVersion(userId);
}

/**
 * Whether the user's row still exists, read now. A request that failed unexpectedly asks this: a
 * user deleted by another program stays in a worker's cache for up to USER_CACHE_MS, and their
 * writes then fail on a foreign key. Forgets the row everywhere when it is gone.
 */
export async function userStillExists(userId: string): Promise<boolean> {
  const found = await users.userRowExists(userId);
  if (!found) publish(USER_CHANGED, userId);
  return found;
}

/** Deletes the user and everything they own; every worker forgets them at once. */
export async function deleteUser(userId: string): Promise<boolean> {
  const deleted = await users.deleteUserById(userId);
  publish(USER_CHANGED, userId);
  return deleted;
}
