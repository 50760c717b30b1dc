// Local account passwords: argon2id hashes, a minimum length and a refusal of the commonest
// passwords. Used by local sign-up on /login and by `crm users create --password` / `set-password`.
import argon2 from "argon2";
import { COMMON_PASSWORDS } from "~/services/common-passwords.server";

export const PASSWORD_MIN_LENGTH = 10;
// argon2 hashes whatever it is given; a cap keeps a huge "password" from costing anything more.
export const PASSWORD_MAX_LENGTH = 256;

// OWASP's argon2id minimum (19 MiB, 2 passes, 1 lane): ~30 ms here, and 19 MiB a sign-in keeps a
// burst of sign-ins from exhausting memory the way the library's 64 MiB default could.
const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

/** True when the password matches the stored hash; a malformed hash is a mismatch, not a crash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/**
 * Why a new password is refused, or null when it is acceptable: too short, too long, one of the
 * commonest passwords (also with digits or symbols added at its end, like "sunshine2024!"), or the
 * account's own e-mail address.
 */
export function passwordProblem(password: string, email?: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `Use at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `At most ${PASSWORD_MAX_LENGTH} characters`;
  const lower = password.toLowerCase();
  const stem = lower.replace(/[\d\W_]+$/, "");
  if (COMMON_PASSWORDS.has(lower) || (stem.length >= 4 && COMMON_PASSWORDS.has(stem)) || /^(.)\1+$/.test(password)) {
    return "This password is too common. Choose one that is harder to guess";
  }
  if (email && (lower === email.toLowerCase() || lower === email.toLowerCase().split("@")[0])) {
    return "Do not use your e-mail address as the password";
  }
  return null;
}
