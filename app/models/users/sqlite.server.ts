// The users model on SQLite: the raw reads as prepared statements on the read connection (or on a
// worker thread's own connection); the rest is Prisma's (./common.server.ts).
import { sqliteOf } from "~/db/engine.server";
import { readStatement } from "~/db/reader.server";
import { commonUsers } from "~/models/users/common.server";
import type { UsersStore } from "~/models/users/contract";
import { type SenderProfile, userOfRow, type UserRow, userStatements } from "~/models/users/rows";

// As SQLite answers: booleans as 0 or 1.
type SqliteUserRow = Omit<UserRow, "emailVerified"> & { emailVerified: number };

const SQL = userStatements("?");

export const sqliteUsers: UsersStore = {
  ...commonUsers,

  async findUserById(id) {
    const row = readStatement<SqliteUserRow>(SQL.userById).get(id);
    return row ? userOfRow({ ...row, emailVerified: row.emailVerified === 1 }) : null;
  },

  async userRowExists(id) {
    return readStatement<{ found: 1 }>(SQL.userExists).get(id) !== undefined;
  },

  async findSenderProfile(userId, connection) {
    const statement = connection
      ? sqliteOf(connection).prepare<unknown[], SenderProfile>(SQL.senderProfile)
      : readStatement<SenderProfile>(SQL.senderProfile);
    return statement.get(userId) ?? null;
  },
};
