// Who may create an account on this install. The first account is its owner and may always be
// made (a new install is opened on the sign-in page); after it, sign-up is closed unless
// SIGN_UP=open, and further accounts are added by the owner (the Users screen) or by the CLI
// (`crm users create`). Each account stays a tenant of its own. The owner is the oldest account,
// so an install that already had several users before this rule keeps them all as they were.
import { getEnv } from "~/env.server";
import { users } from "~/models/users/store.server";

export const SIGN_UP_CLOSED =
  "This server does not take new accounts: ask its owner to add you (they get a link for you to set a password), or sign in with the e-mail they added.";

/** Whether a new e-mail may make an account of its own now. */
export async function signUpAllowed(): Promise<boolean> {
  if (getEnv().SIGN_UP === "open") return true;
  return (await users.findOldestUserId()) === null;
}

/**
 * Whether an account a sign-up has just made may stay. Sign-ups at the same moment on a new
 * install each find no account and each insert one; while sign-up is closed only the oldest, the
 * owner's, stays: any other is deleted (it was never used) and its sign-up refused as closed.
 */
export async function keepSignUp(userId: string): Promise<boolean> {
  if (getEnv().SIGN_UP === "open" || (await users.findOldestUserId()) === userId) return true;
  await users.deleteUserById(userId);
  return false;
}

/** Whether this install has no account yet: its sign-in page then makes the owner's. */
export async function awaitingOwner(): Promise<boolean> {
  return (await users.findOldestUserId()) === null;
}

/** Whether the user is this install's owner (its oldest account). */
export async function isOwner(userId: string): Promise<boolean> {
  return (await users.findOldestUserId()) === userId;
}

/** A sign-up refused because sign-up is closed (Google sign-in of an e-mail nobody added). */
export class SignUpClosed extends Error {
  constructor() {
    super(SIGN_UP_CLOSED);
    this.name = "SignUpClosed";
  }
}
