// Local account passwords: argon2id hashes, a minimum length and a strength estimate. Used by
// local sign-up on /login and by `crm users create --password` / `set-password`.
//
// Strength is zxcvbn's estimate (@zxcvbn-ts/core with the maintained common-password and English
// dictionaries): it counts the guesses an attacker who tries common passwords, words, names,
// dates, keyboard rows, repeats and l33t spellings first would need, and knows the account's own
// name and e-mail address. Its dictionaries take about half a second to load and rank, so they
// are built once per process, on the first password checked (docs/decisions/0036-password-strength.md).
import argon2 from "argon2";
import type { ZxcvbnFactory, ZxcvbnResult } from "@zxcvbn-ts/core";

export const PASSWORD_MIN_LENGTH = 10;
// argon2 hashes whatever it is given; a cap keeps a huge "password" from costing anything more.
export const PASSWORD_MAX_LENGTH = 256;
/** zxcvbn's scores run 0–4; 3 is "safely unguessable": at least 10^8 guesses. */
export const PASSWORD_MIN_SCORE = 3;
// The estimator reads this many characters: its time grows fast with the length (up to 3 s for
// 256 characters of l33t symbols, 0.4 s for 64), and a password whose first 64 characters are
// hard to guess is hard to guess.
const ESTIMATED_LENGTH = 64;

export const PASSWORD_TOO_SHORT = `Use at least ${PASSWORD_MIN_LENGTH} characters`;
export const PASSWORD_TOO_LONG = `At most ${PASSWORD_MAX_LENGTH} characters`;
export const PASSWORD_GUESSABLE =
  "This password is easy to guess. Use three or four unrelated words, or a password from a password manager";
export const PASSWORD_PERSONAL =
  "This password is easy to guess from your name or e-mail address. Leave them out: use three or four unrelated words, or a password from a password manager";

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

let estimator: Promise<ZxcvbnFactory> | undefined;

/** The strength estimator, its dictionaries loaded and ranked on the first call of the process. */
export function passwordEstimator(): Promise<ZxcvbnFactory> {
  estimator ??= (async () => {
    const [{ ZxcvbnFactory }, common, en] = await Promise.all([
      import("@zxcvbn-ts/core"),
      import("@zxcvbn-ts/language-common"),
      import("@zxcvbn-ts/language-en"),
    ]);
    return new ZxcvbnFactory({
      dictionary: { ...common.dictionary, ...en.dictionary },
      graphs: common.adjacencyGraphs,
      translations: en.translations,
      maxLength: ESTIMATED_LENGTH,
    });
  })();
  estimator.catch(() => (estimator = undefined));
  return estimator;
}

/**
 * The words of a person's name and e-mail address that a password should not be built from:
 * the whole address, its local part and that part's pieces (priya.sharma+crm → priya, sharma),
 * the domain and its first label, the name and each of its words. Pieces under 3 characters
 * would match everywhere and are left out.
 */
export function personalWords(who: { email?: string | null; name?: string | null }): string[] {
  const words = new Set<string>();
  const add = (w: string) => {
    const word = w.trim().toLowerCase();
    if (word.length >= 3) words.add(word);
  };
  if (who.email) {
    const [local = "", domain = ""] = who.email.split("@");
    add(who.email);
    add(local);
    local.split(/[^\p{L}\p{N}]+/u).forEach(add);
    add(domain);
    add(domain.split(".")[0] ?? "");
  }
  if (who.name) {
    add(who.name);
    who.name.split(/[^\p{L}\p{N}]+/u).forEach(add);
    add(who.name.replace(/[^\p{L}\p{N}]+/gu, ""));
  }
  return [...words];
}

/** zxcvbn's estimate of a password for this person (their name and e-mail address count as known). */
export async function estimatePassword(
  password: string,
  who: { email?: string | null; name?: string | null } = {},
): Promise<ZxcvbnResult> {
  return (await passwordEstimator()).check(password, personalWords(who));
}

/**
 * Why a new password is refused, or null when it is acceptable: shorter than 10 characters,
 * longer than 256, or guessable in fewer than 10^8 guesses by zxcvbn's estimate, which knows
 * the account's name and e-mail address.
 */
export async function passwordProblem(
  password: string,
  who: { email?: string | null; name?: string | null } = {},
): Promise<string | null> {
  if (password.length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT;
  if (password.length > PASSWORD_MAX_LENGTH) return PASSWORD_TOO_LONG;
  const estimate = await estimatePassword(password, who);
  if (estimate.score >= PASSWORD_MIN_SCORE) return null;
  const personal = estimate.sequence.some((m) => "dictionaryName" in m && m.dictionaryName === "userInputs");
  return personal ? PASSWORD_PERSONAL : PASSWORD_GUESSABLE;
}
