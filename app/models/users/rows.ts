// Users as stored: the one declaration of the user row, the fields an account is made or changed
// with, and the SQL text of the raw reads, the same on both engines but for how each names its
// parameter (`?` on SQLite, `$1` on PostgreSQL).
import type { User } from "~/generated/prisma/client";

/** One user, as the services see it (dates as Dates, emailVerified as a boolean). */
export type { User };

/** The fields a new account is made with; the rest take the table's defaults. */
export type NewUser = Pick<User, "id" | "email" | "provider" | "displayName" | "firstName" | "lastName"> &
  Partial<Pick<User, "googleId" | "emailVerified" | "profileImage" | "passwordHash">>;

/** The fields a sign-in or a profile save may change (an undefined field is left as it is). */
export type UserChanges = Partial<Omit<User, "id" | "createdAt" | "updatedAt" | "sessionVersion">>;

/**
 * What names a tenant as the sender of their campaigns (app/services/email/sender.server.ts): their
 * profile, and the postal address of their brand (null when they never set one).
 */
export type SenderProfile = Pick<User, "company" | "displayName" | "email"> & { postalAddress: string | null };

const USER_BY_ID_SQL = (
  param: string,
) => `SELECT "id", "email", "displayName", "firstName", "lastName", "phone", "company", "position",
  "profileImage", "googleId", "provider", "newCustomersSinceNotice", "createdAt", "updatedAt", "passwordHash",
  "emailVerified", "sessionVersion", "timeZone" FROM "User" WHERE "id" = ${param}`;
const USER_EXISTS_SQL = (param: string) => `SELECT 1 AS "found" FROM "User" WHERE "id" = ${param}`;
const SENDER_PROFILE_SQL = (param: string) =>
  `SELECT u."company", u."displayName", u."email", b."postalAddress" FROM "User" u
  LEFT JOIN "Brand" b ON b."userId" = u."id" WHERE u."id" = ${param}`;

/** The statements both engines run, with the engine's spelling of their one parameter (made once per engine file). */
export const userStatements = (param: string) => ({
  userById: USER_BY_ID_SQL(param),
  userExists: USER_EXISTS_SQL(param),
  senderProfile: SENDER_PROFILE_SQL(param),
});

/** A user as both engines read it: its dates as epoch milliseconds. */
export type UserRow = Omit<User, "createdAt" | "updatedAt"> & { createdAt: number; updatedAt: number };

/** The User of a row read with USER_BY_ID_SQL. */
export const userOfRow = (row: UserRow): User => ({
  ...row,
  createdAt: new Date(row.createdAt),
  updatedAt: new Date(row.updatedAt),
});
