// What the users model offers (UsersStore): the queries behind sign-in, the profile, sessions and
// the admin commands (app/services/users.server.ts holds their rules).
import type { AnyConnection } from "~/db/connection.server";
import type { NewUser, SenderProfile, User, UserChanges } from "~/models/users/rows";

export type UsersStore = {
  /**
   * The user by id. Every page and /api request resolves its caller here, so it is a prepared
   * statement on the read connection (see ~/db/reader.server) rather than a Prisma query; on
   * PostgreSQL, one statement on the process's pool.
   */
  findUserById(id: string): Promise<User | null>;
  /** Whether the user's row exists, read now on the read connection (the pool on PostgreSQL). */
  userRowExists(id: string): Promise<boolean>;
  /** The user with this e-mail, given as stored (lower case). */
  findUserWithEmail(email: string): Promise<User | null>;
  /** The user with this Google account id. */
  findUserWithGoogleId(googleId: string): Promise<User | null>;
  /** Whether an account other than `userId` uses this e-mail. */
  emailUsedByAnother(email: string, userId: string): Promise<boolean>;
  /** The user's e-mail as stored, or null for no such user. */
  findUserEmail(userId: string): Promise<string | null>;
  /** Every user, oldest first. */
  listUsersOldestFirst(): Promise<User[]>;
  /** The oldest account's id (the install's owner), or null before the first account. */
  findOldestUserId(): Promise<string | null>;
  /** Makes an account. */
  insertUser(user: NewUser): Promise<User>;
  /** Writes the given fields of the user's row. */
  updateUser(userId: string, changes: UserChanges): Promise<User>;
  /** Sets the password hash and moves the session version on, in one write. */
  setPasswordAndEndSessions(userId: string, passwordHash: string): Promise<User>;
  /**
   * setPasswordAndEndSessions only while the session version is still `version` (a one-time
   * link's), as one conditional write: of two uses of one link at once, one sets the password. The
   * user as written, or null when the version had moved on (or the user is gone).
   */
  setPasswordAtVersion(userId: string, version: number, passwordHash: string): Promise<User | null>;
  /** Moves the user's session version on (nothing happens for no such user). */
  bumpSessionVersion(userId: string): Promise<void>;
  /** The session version as stored now, or null for no such user. */
  readSessionVersion(userId: string): Promise<number | null>;
  /** Deletes the user (their data goes with them, by the foreign keys); whether there was one. */
  deleteUserById(userId: string): Promise<boolean>;
  /**
   * The tenant's sender fields, or null for no such user: on the read connection (the pool on
   * PostgreSQL), or on the connection a worker thread opened (the delivery job).
   */
  findSenderProfile(userId: string, connection?: AnyConnection): Promise<SenderProfile | null>;
};
