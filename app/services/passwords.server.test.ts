// New passwords: the length rules, then zxcvbn's estimate with the person's name and e-mail address
// as known words. The guessable examples are ones the former 1996–2011 common-password list let
// through (keyboard walks, sequences, l33t spellings with a year, a place with digits, the
// person's own name and birth year).
import { describe, expect, it } from "vitest";
import {
  PASSWORD_GUESSABLE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_PERSONAL,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
  estimatePassword,
  hashPassword,
  passwordEstimator,
  passwordProblem,
  personalWords,
  verifyPassword,
} from "~/services/passwords.server";

const priya = { email: "priya.sharma@example.com", name: "Priya Sharma" };

describe("passwordProblem", () => {
  it("keeps the length rules: at least 10 characters, at most 256", async () => {
    expect(await passwordProblem("kx9!Lm2#p")).toBe(PASSWORD_TOO_SHORT);
    expect(PASSWORD_TOO_SHORT).toBe("Use at least 10 characters");
    expect(await passwordProblem("saffron kettle ".repeat(20).slice(0, PASSWORD_MAX_LENGTH + 1))).toBe(
      PASSWORD_TOO_LONG,
    );
    expect(await passwordProblem("saffron kettle ".repeat(20).slice(0, PASSWORD_MAX_LENGTH))).toBeNull();
  });

  it("refuses guessable passwords the old list let through, and says what to do", async () => {
    for (const password of [
      "1q2w3e4r5t",
      "1qaz2wsx3edc",
      "qazwsxedcrfv",
      "abcdefghij",
      "P@ssw0rd2024",
      "India@2024",
      "mumbai@12345",
      "1234567890",
      "Sunshine2024!",
    ]) {
      expect(await passwordProblem(password, priya), password).toBe(PASSWORD_GUESSABLE);
    }
    expect(PASSWORD_GUESSABLE).toContain("Use three or four unrelated words");
  });

  it("refuses a password built from the person's own name or e-mail address, and only for them", async () => {
    expect(await passwordProblem("priya.sharma1990", priya)).toBe(PASSWORD_PERSONAL);
    expect(await passwordProblem("example.com2024", priya)).toBe(PASSWORD_PERSONAL);
    // The same passwords for somebody else: nothing in them is known about that person.
    const other = { email: "arjun@example.org", name: "Arjun Rao" };
    expect(await passwordProblem("priya.sharma1990", other)).toBeNull();
    expect(PASSWORD_PERSONAL).toContain("name or e-mail address");
  });

  it("accepts passphrases and random passwords", async () => {
    for (const password of ["saffron kettle monsoon", "correct horse battery staple", "kx9!Lm2#pQ7v"]) {
      expect(await passwordProblem(password, priya), password).toBeNull();
    }
  });

  it("estimates the first 64 characters only (the estimator's time grows fast with the length)", async () => {
    const long = "p4$$w0rd".repeat(32);
    expect((await estimatePassword(long, priya)).password).toBe(long.slice(0, 64));
    expect(await passwordProblem(long, priya)).toBe(PASSWORD_GUESSABLE);
  });
});

describe("the estimator", () => {
  it("is built once per process and kept", async () => {
    const first = passwordEstimator();
    expect(passwordEstimator()).toBe(first);
    expect(await passwordEstimator()).toBe(await first);
  });
});

describe("personalWords", () => {
  it("splits the e-mail address and the name into the words a password should not be made of", () => {
    expect(personalWords({ email: "priya.sharma+crm@mail.example.in", name: "Priya  Sharma-Iyer" }).sort()).toEqual(
      [
        "crm",
        "iyer",
        "mail",
        "mail.example.in",
        "priya",
        "priya  sharma-iyer",
        "priya.sharma+crm",
        "priya.sharma+crm@mail.example.in",
        "priyasharmaiyer",
        "sharma",
      ].sort(),
    );
    expect(personalWords({ email: "al@x.io", name: "Al" })).toEqual(["al@x.io", "x.io"]);
  });
});

describe("hashPassword", () => {
  it("hashes with argon2id and verifies only the same password", async () => {
    const hash = await hashPassword("saffron kettle monsoon");
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(hash, "saffron kettle monsoon")).toBe(true);
    expect(await verifyPassword(hash, "saffron kettle monsoon!")).toBe(false);
    expect(await verifyPassword("not a hash", "saffron kettle monsoon")).toBe(false);
  });
});
