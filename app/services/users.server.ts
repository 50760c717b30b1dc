// Users: created or updated at sign-in (Google or local), read by the shell, edited on /profile.
import { db } from "~/db.server";
import { readStatement } from "~/db/reader.server";
import type { User } from "~/generated/prisma/client";
import { newId } from "~/lib/id";
import { ApiError } from "~/lib/api.server";
import type { ProfileInput } from "~/schemas/profile";
import { notify } from "~/services/notifications.server";
import { publish, subscribeOnce } from "~/services/process-bus.server";
import type { PublicUser } from "~/lib/dto";

export type { PublicUser };

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

type UserRow = Omit<User, "createdAt" | "updatedAt"> & { createdAt: number; updatedAt: number };

// Callers resolved in the last moments, so a program sending many requests does not read its
// user row for each: measured, that read was ~47 µs of the ~350 µs GET /api/customers/{id} costs
// at 50 connections. A change made here is published on the process bus, so every worker forgets
// the row at once; a change made by another program (the CLI) shows within USER_CACHE_MS.
const USER_CACHE_MS = 2_000;
const MAX_CACHED_USERS = 10_000;
/** The process-bus topic that makes every worker forget a user row (its payload is the id). */
export const USER_CHANGED = "user-changed";
const globalForUsers = globalThis as unknown as { __crmUserCache?: Map<string, { user: User; until: number }> };
const cachedUsers = (globalForUsers.__crmUserCache ??= new Map());
subscribeOnce<string>("user-cache", USER_CHANGED, (id) => cachedUsers.delete(id));

/** Drops the user from every worker's cache (after any change to their row). */
function userChanged<T extends { id: string }>(user: T): T {
  publish(USER_CHANGED, user.id);
  return user;
}

/**
 * The user by id: every page and /api request resolves its caller here, so it is a prepared
 * statement on the read connection (see ~/db/reader.server) rather than a Prisma query, and the
 * answer is kept for USER_CACHE_MS.
 */
export async function getUser(id: string): Promise<User | null> {
  const now = Date.now();
  const cached = cachedUsers.get(id);
  if (cached && cached.until > now) return cached.user;
  const row = readStatement(
    `SELECT "id", "email", "displayName", "firstName", "lastName", "phone", "company", "position", "profileImage",
       "googleId", "provider", "newCustomersSinceNotice", "createdAt", "updatedAt" FROM "User" WHERE "id" = ?`,
  ).get(id) as UserRow | undefined;
  if (!row) {
    cachedUsers.delete(id);
    return null;
  }
  const user: User = { ...row, createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
  if (cachedUsers.size >= MAX_CACHED_USERS) cachedUsers.clear();
  cachedUsers.set(id, { user, until: now + USER_CACHE_MS });
  return user;
}

export function findUserByEmail(email: string) {
  return db().user.findUnique({ where: { email: email.toLowerCase() } });
}

export function listUsers() {
  return db().user.findMany({ orderBy: { createdAt: "asc" } });
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
  displayName: string;
  firstName?: string;
  lastName?: string;
  profileImage?: string | null;
};

/** Creates the user at their first Google sign-in, or refreshes what Google says about them. */
export async function upsertGoogleUser(profile: GoogleProfile): Promise<User> {
  const email = profile.email.toLowerCase();
  const existing = await db().user.findFirst({
    where: { OR: [{ googleId: profile.googleId }, { email }] },
  });
  if (existing) {
    return userChanged(await db().user.update({
      where: { id: existing.id },
      data: {
        googleId: profile.googleId,
        provider: "google",
        displayName: profile.displayName || existing.displayName,
        profileImage: profile.profileImage ?? existing.profileImage,
        firstName: existing.firstName || profile.firstName || "",
        lastName: existing.lastName || profile.lastName || "",
      },
    }));
  }
  const user = await db().user.create({
    data: {
      id: newId(),
      email,
      googleId: profile.googleId,
      provider: "google",
      displayName: profile.displayName || email,
      firstName: profile.firstName ?? "",
      lastName: profile.lastName ?? "",
      profileImage: profile.profileImage ?? null,
    },
  });
  await welcome(user);
  return user;
}

/** Local sign-in (embedded mode) and `crm users create`: reuses the account with that e-mail. */
export async function upsertLocalUser(input: { email: string; name: string }): Promise<User> {
  const email = input.email.toLowerCase();
  const existing = await db().user.findUnique({ where: { email } });
  if (existing) return existing;
  const [firstName, ...rest] = input.name.trim().split(/\s+/);
  const user = await db().user.create({
    data: {
      id: newId(),
      email,
      provider: "local",
      displayName: input.name.trim(),
      firstName: firstName ?? "",
      lastName: rest.join(" "),
    },
  });
  await welcome(user);
  return user;
}

export async function updateProfile(userId: string, input: ProfileInput): Promise<User> {
  const email = input.email.toLowerCase();
  const clash = await db().user.findFirst({ where: { email, NOT: { id: userId } }, select: { id: true } });
  if (clash) {
    throw new ApiError("conflict", "Another account already uses this e-mail", {
      email: "Another account already uses this e-mail",
    });
  }
  const displayName = [input.firstName, input.lastName].filter(Boolean).join(" ");
  return userChanged(
    await db().user.update({
      where: { id: userId },
      data: { ...input, email, ...(displayName ? { displayName } : {}) },
    }),
  );
}
