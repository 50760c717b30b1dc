// Users as stored: the one declaration of the user row, and the queries behind sign-in, the
// profile, sessions and the admin commands (app/services/users.server.ts holds their rules).
// The raw reads have PostgreSQL twins in ./users.postgres.server.ts; the Prisma calls run on
// either engine as they are (db() is PostgreSQL's client there).
import { db } from "~/db/prisma.server";
import { type AnyConnection, databaseEngine, isPostgres } from "~/db/connection.server";
import { postgres } from "~/db/postgres.server";
import { readStatement } from "~/db/reader.server";
import type { User } from "~/generated/prisma/client";
import { findSenderProfilePg, findUserByIdPg, userRowExistsPg } from "~/models/users.postgres.server";

/** One user, as the services see it (dates as Dates, emailVerified as a boolean). */
export type { User };

/** The fields a new account is made with; the rest take the table's defaults. */
export type NewUser = Pick<User, "id" | "email" | "provider" | "displayName" | "firstName" | "lastName"> &
  Partial<Pick<User, "googleId" | "emailVerified" | "profileImage" | "passwordHash">>;

/** The fields a sign-in or a profile save may change (an undefined field is left as it is). */
export type UserChanges = Partial<Omit<User, "id" | "createdAt" | "updatedAt" | "sessionVersion">>;

// As SQLite answers: dates as epoch milliseconds, booleans as 0 or 1.
type UserRow = Omit<User, "createdAt" | "updatedAt" | "emailVerified"> & {
  createdAt: number;
  updatedAt: number;
  emailVerified: number;
};

const USER_BY_ID_SQL = `SELECT "id", "email", "displayName", "firstName", "lastName", "phone", "company", "position",
  "profileImage", "googleId", "provider", "newCustomersSinceNotice", "createdAt", "updatedAt", "passwordHash",
  "emailVerified", "sessionVersion", "timeZone" FROM "User" WHERE "id" = ?`;

/**
 * The user by id. Every page and /api request resolves its caller here, so it is a prepared
 * statement on the read connection (see ~/db/reader.server) rather than a Prisma query; on
 * PostgreSQL, one statement on the process's pool.
 */
export async function findUserById(id: string): Promise<User | null> {
  if (databaseEngine() === "postgres") return findUserByIdPg(postgres(), id);
  const row = readStatement<UserRow>(USER_BY_ID_SQL).get(id);
  if (!row) return null;
  return {
    ...row,
    emailVerified: row.emailVerified === 1,
    createdAt: new Date(row.createdAt),
    updatedAt: new Date(row.updatedAt),
  };
}

/** Whether the user's row exists, read now on the read connection. */
export async function userRowExists(id: string): Promise<boolean> {
  if (databaseEngine() === "postgres") return userRowExistsPg(postgres(), id);
  return readStatement<{ found: 1 }>(`SELECT 1 AS "found" FROM "User" WHERE "id" = ?`).get(id) !== undefined;
}

/** The user with this e-mail, given as stored (lower case). */
export async function findUserWithEmail(email: string): Promise<User | null> {
  return db().user.findUnique({ where: { email } });
}

export async function findUserWithGoogleId(googleId: string): Promise<User | null> {
  return db().user.findUnique({ where: { googleId } });
}

/** Whether an account other than `userId` uses this e-mail. */
export async function emailUsedByAnother(email: string, userId: string): Promise<boolean> {
  const clash = await db().user.findFirst({ where: { email, NOT: { id: userId } }, select: { id: true } });
  return clash !== null;
}

/** The user's e-mail as stored, or null for no such user. */
export async function findUserEmail(userId: string): Promise<string | null> {
  const row = await db().user.findUnique({ where: { id: userId }, select: { email: true } });
  return row?.email ?? null;
}

/** Every user, oldest first. */
export async function listUsersOldestFirst(): Promise<User[]> {
  return db().user.findMany({ orderBy: { createdAt: "asc" } });
}

/** The oldest account's id (the install's owner), or null before the first account. */
export async function findOldestUserId(): Promise<string | null> {
  const row = await db().user.findFirst({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  return row?.id ?? null;
}

export async function insertUser(user: NewUser): Promise<User> {
  return db().user.create({ data: user });
}

export async function updateUser(userId: string, changes: UserChanges): Promise<User> {
  return db().user.update({ where: { id: userId }, data: changes });
}

/** Sets the password hash and moves the session version on, in one write. */
export async function setPasswordAndEndSessions(userId: string, passwordHash: string): Promise<User> {
  return db().user.update({ where: { id: userId }, data: { passwordHash, sessionVersion: { increment: 1 } } });
}

/**
 * setPasswordAndEndSessions only while the session version is still `version` (a one-time link's),
 * as one conditional write: of two uses of one link at once, one sets the password. The user as
 * written, or null when the version had moved on (or the user is gone).
 */
export async function setPasswordAtVersion(
  userId: string,
  version: number,
  passwordHash: string,
): Promise<User | null> {
  const { count } = await db().user.updateMany({
    where: { id: userId, sessionVersion: version },
    data: { passwordHash, sessionVersion: { increment: 1 } },
  });
  return count === 1 ? db().user.findUnique({ where: { id: userId } }) : null;
}

/** Moves the user's session version on (nothing happens for no such user). */
export async function bumpSessionVersion(userId: string): Promise<void> {
  await db().user.updateMany({ where: { id: userId }, data: { sessionVersion: { increment: 1 } } });
}

/** The session version as stored now, or null for no such user. */
export async function readSessionVersion(userId: string): Promise<number | null> {
  const row = await db().user.findUnique({ where: { id: userId }, select: { sessionVersion: true } });
  return row?.sessionVersion ?? null;
}

/** Deletes the user (their data goes with them, by the foreign keys); whether there was one. */
export async function deleteUserById(userId: string): Promise<boolean> {
  const { count } = await db().user.deleteMany({ where: { id: userId } });
  return count > 0;
}

/** What names a tenant as the sender of their campaigns (app/services/email/sender.server.ts). */
export type SenderProfile = Pick<User, "company" | "displayName" | "email">;

/**
 * The tenant's sender fields, or null for no such user: on the read connection (the pool on
 * PostgreSQL), or on the connection a worker thread opened (the delivery job), of either engine.
 */
export async function findSenderProfile(userId: string, connection?: AnyConnection): Promise<SenderProfile | null> {
  if (connection && isPostgres(connection)) return findSenderProfilePg(connection, userId);
  if (!connection && databaseEngine() === "postgres") return findSenderProfilePg(postgres(), userId);
  const sql = `SELECT "company", "displayName", "email" FROM "User" WHERE "id" = ?`;
  const statement = connection ? connection.prepare<unknown[], SenderProfile>(sql) : readStatement<SenderProfile>(sql);
  return statement.get(userId) ?? null;
}
