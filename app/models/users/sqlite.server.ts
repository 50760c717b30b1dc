// The users model on SQLite: the raw reads as prepared statements on the read connection (or on a
// worker thread's own connection); the rest is Prisma's (./common.server.ts).
import { sqliteOf } from "~/db/engine.server";
import { readStatement } from "~/db/reader.server";
import { commonUsers } from "~/models/users/common.server";
import type { UsersStore } from "~/models/users/contract";
import {
  SENDER_PROFILE_SQL,
  type SenderProfile,
  type User,
  USER_BY_ID_SQL,
  USER_EXISTS_SQL,
} from "~/models/users/rows";

// As SQLite answers: dates as epoch milliseconds, booleans as 0 or 1.
type UserRow = Omit<User, "createdAt" | "updatedAt" | "emailVerified"> & {
  createdAt: number;
  updatedAt: number;
  emailVerified: number;
};

const USER_BY_ID = USER_BY_ID_SQL("?");
const USER_EXISTS = USER_EXISTS_SQL("?");
const SENDER_PROFILE = SENDER_PROFILE_SQL("?");

export const sqliteUsers: UsersStore = {
  ...commonUsers,

  async findUserById(id) {
    const row = readStatement<UserRow>(USER_BY_ID).get(id);
    if (!row) return null;
    return {
      ...row,
      emailVerified: row.emailVerified === 1,
      createdAt: new Date(row.createdAt),
      updatedAt: new Date(row.updatedAt),
    };
  },

  async userRowExists(id) {
    return readStatement<{ found: 1 }>(USER_EXISTS).get(id) !== undefined;
  },

  async findSenderProfile(userId, connection) {
    const statement = connection
      ? sqliteOf(connection).prepare<unknown[], SenderProfile>(SENDER_PROFILE)
      : readStatement<SenderProfile>(SENDER_PROFILE);
    return statement.get(userId) ?? null;
  },
};
