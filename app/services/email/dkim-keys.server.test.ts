import { createPublicKey } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  DkimKeyError,
  defaultSelector,
  dkimKeyFile,
  dnsRecordsFor,
  formatDnsRecords,
  generateDkimKey,
  loadDkimKey,
  normaliseDomain,
  normaliseSelector,
  readDkimKey,
  splitTxtValue,
} from "./dkim-keys.server";

const scratch = mkdtempSync(path.join(tmpdir(), "crm-dkim-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const freshDir = () => path.join(scratch, `data-${++n}`);
const mode = (file: string) => statSync(file).mode & 0o777;

describe("domain and selector names", () => {
  it("keeps a domain lower-case, IDN as punycode, without a trailing dot", () => {
    expect(normaliseDomain(" Example.COM. ")).toBe("example.com");
    expect(normaliseDomain("mail.bücher.de")).toBe("mail.xn--bcher-kva.de");
    expect(normaliseDomain("xn--bcher-kva.de")).toBe("xn--bcher-kva.de");
  });

  it.each([
    "",
    "localhost",
    "../etc/passwd",
    "a/b.com",
    "a\\b.com",
    "..",
    "a..com",
    "-a.com",
    "a-.com",
    "a_b.com",
    "exa mple.com",
    "user@example.com",
    "ex%41mple.com",
    "1.2.3.4",
    "xn--zz.com",
    `${"a".repeat(64)}.com`,
  ])("refuses %j as a domain, saying what a domain looks like", (input) => {
    expect(() => normaliseDomain(input)).toThrow(DkimKeyError);
    expect(() => normaliseDomain(input)).toThrow(/is not a domain name \(.+\)\. Give the domain of your From address/);
  });

  it("takes selectors of letters, digits, hyphens and dots, and defaults to crm + year and month", () => {
    expect(normaliseSelector("Mail-2026.eu")).toBe("mail-2026.eu");
    expect(defaultSelector(new Date("2026-01-31T23:59:59Z"))).toBe("crm202601");
    expect(defaultSelector(new Date("2026-11-25T12:00:00Z"))).toBe("crm202611");
    for (const bad of ["", "a_b", "a/b", "-a", "a.", "a..b", "x".repeat(64), "sel ector"]) {
      expect(() => normaliseSelector(bad), bad).toThrow(/is not a DKIM selector/);
    }
  });
});

describe("generateDkimKey and loadDkimKey", () => {
  it("stores an RSA-2048 key readable only by this user and loads it for nodemailer", () => {
    const dataDir = freshDir();
    expect(loadDkimKey(dataDir, "example.com")).toBeNull();
    const made = generateDkimKey(dataDir, "Example.com", { now: new Date("2026-11-25T10:00:00Z") });
    expect(made.file).toBe(path.join(dataDir, "dkim", "example.com.json"));
    expect(made.replaced).toBeNull();
    expect(mode(path.join(dataDir, "dkim"))).toBe(0o700);
    expect(mode(made.file)).toBe(0o600);
    const stored = JSON.parse(readFileSync(made.file, "utf8")) as Record<string, string>;
    expect(Object.keys(stored).sort()).toEqual(["createdAt", "domain", "privateKey", "publicKey", "selector"]);
    expect(stored).toMatchObject({
      domain: "example.com",
      selector: "crm202611",
      createdAt: "2026-11-25T10:00:00.000Z",
    });
    expect(stored.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
    expect(stored.publicKey).toMatch(/^-----BEGIN PUBLIC KEY-----\n/);
    expect(createPublicKey(stored.publicKey).asymmetricKeyDetails?.modulusLength).toBe(2048);

    expect(loadDkimKey(dataDir, "EXAMPLE.COM.")).toEqual({
      domainName: "example.com",
      keySelector: "crm202611",
      privateKey: stored.privateKey,
    });
    expect(loadDkimKey(dataDir, "other.example.com")).toBeNull();
  });

  it("refuses to replace a key without force, and says why; with force it replaces it", () => {
    const dataDir = freshDir();
    const first = generateDkimKey(dataDir, "example.org", { selector: "one" });
    const refused = () => generateDkimKey(dataDir, "example.org", { selector: "two" });
    expect(refused).toThrow(DkimKeyError);
    expect(refused).toThrow(/already has a DKIM key \(selector one, .*it was kept/);
    expect(refused).toThrow(/breaks DKIM for mail already on its way/);
    expect(refused).toThrow(/--force/);
    expect(readDkimKey(dataDir, "example.org")).toEqual(first.key);

    const second = generateDkimKey(dataDir, "example.org", { selector: "two", force: true });
    expect(second.replaced).toEqual(first.key);
    expect(readDkimKey(dataDir, "example.org")).toEqual(second.key);
    expect(second.key.privateKey).not.toBe(first.key.privateKey);
    expect(mode(second.file)).toBe(0o600);
  });

  it("makes a key file others could read private again when it reads it", () => {
    const dataDir = freshDir();
    const { file } = generateDkimKey(dataDir, "example.net");
    chmodSync(file, 0o644);
    expect(loadDkimKey(dataDir, "example.net")).not.toBeNull();
    expect(mode(file)).toBe(0o600);
  });

  it("a damaged, foreign or mismatched key file is a clear error naming the file and the fix", () => {
    const dataDir = freshDir();
    const good = generateDkimKey(dataDir, "good.example").key;
    const other = generateDkimKey(dataDir, "other.example").key;
    mkdirSync(path.join(dataDir, "dkim"), { recursive: true });
    const write = (domain: string, text: string) => writeFileSync(dkimKeyFile(dataDir, domain), text, { mode: 0o600 });
    const expectBroken = (domain: string, why: RegExp) => {
      let error: unknown;
      try {
        loadDkimKey(dataDir, domain);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(DkimKeyError);
      const message = (error as Error).message;
      expect(message).toContain(dkimKeyFile(dataDir, domain));
      expect(message).toMatch(why);
      expect(message).toContain(`crm dkim generate --domain ${domain} --force`);
    };

    write("a.example", "{ not json");
    expectBroken("a.example", /is not valid JSON/);
    write("b.example", JSON.stringify({ domain: "b.example", selector: "s" }));
    expectBroken("b.example", /is not a DKIM key file .*privateKey/);
    write("c.example", JSON.stringify(other));
    expectBroken("c.example", /is for the domain "other.example", not c.example/);
    write("d.example", JSON.stringify({ ...good, domain: "d.example", publicKey: other.publicKey }));
    expectBroken("d.example", /public key that does not belong to its private key/);
    write("e.example", JSON.stringify({ ...good, domain: "e.example", privateKey: "-----BEGIN PRIVATE KEY-----\nxx" }));
    expectBroken("e.example", /private key that is not a PEM key/);
    write("f.example", JSON.stringify({ ...good, domain: "f.example", selector: "bad/selector" }));
    expectBroken("f.example", /bad selector/);
    mkdirSync(dkimKeyFile(dataDir, "h.example"));
    expectBroken("h.example", /cannot be read \(EISDIR\): it must be a file the server's user can read/);
    if (process.getuid?.() !== 0) {
      write("g.example", JSON.stringify({ ...good, domain: "g.example" }));
      chmodSync(dkimKeyFile(dataDir, "g.example"), 0o000);
      expectBroken("g.example", /cannot be read \(EACCES\)/);
    }
    // A damaged file may be replaced on purpose, not by accident.
    expect(() => generateDkimKey(dataDir, "a.example")).toThrow(/is not valid JSON/);
    expect(generateDkimKey(dataDir, "a.example", { force: true }).replaced).toBeNull();
    expect(loadDkimKey(dataDir, "a.example")).not.toBeNull();
    // Other domains' keys are untouched by all of this.
    expect(loadDkimKey(dataDir, "good.example")?.privateKey).toBe(good.privateKey);
  });
});

describe("dnsRecordsFor", () => {
  const dataDir = freshDir();
  const { key } = generateDkimKey(dataDir, "shop.example.in", { selector: "crm202611" });

  it("gives the DKIM record of the key, split into DNS strings of at most 255 characters", () => {
    const { dkim } = dnsRecordsFor(key);
    expect(dkim.name).toBe("crm202611._domainkey.shop.example.in");
    expect(dkim.type).toBe("TXT");
    const der = createPublicKey(key.publicKey).export({ type: "spki", format: "der" }).toString("base64");
    expect(dkim.value).toBe(`v=DKIM1; k=rsa; p=${der}`);
    expect(dkim.strings.length).toBe(2);
    expect(dkim.strings.every((s) => s.length <= 255)).toBe(true);
    expect(dkim.strings.join("")).toBe(dkim.value);
  });

  it("recommends SPF with a relay placeholder to replace, and DMARC p=none with reports", () => {
    const { spf, dmarc } = dnsRecordsFor(key);
    expect(spf).toMatchObject({ name: "shop.example.in", value: "v=spf1 include:YOUR-RELAY-SPF-DOMAIN ~all" });
    expect(spf.note).toMatch(/Replace YOUR-RELAY-SPF-DOMAIN with the domain your SMTP relay/);
    expect(dmarc).toMatchObject({
      name: "_dmarc.shop.example.in",
      value: "v=DMARC1; p=none; rua=mailto:dmarc@shop.example.in",
    });
    expect(dmarc.note).toMatch(/p=quarantine and then p=reject/);
  });

  it("prints all three with the zone-file form of the DKIM value", () => {
    const text = formatDnsRecords(key);
    const { dkim } = dnsRecordsFor(key);
    expect(text).toContain(`Name:  ${dkim.name}`);
    expect(text).toContain(`Value: ${dkim.value}`);
    expect(text).toContain(`${dkim.name}. IN TXT (\n  "${dkim.strings[0]}"\n  "${dkim.strings[1]}"\n)`);
    expect(text).toContain("v=spf1 include:YOUR-RELAY-SPF-DOMAIN ~all");
    expect(text).toContain("_dmarc.shop.example.in");
  });

  it("splits on 255 characters exactly", () => {
    expect(splitTxtValue("")).toEqual([""]);
    expect(splitTxtValue("x".repeat(255))).toEqual(["x".repeat(255)]);
    expect(splitTxtValue("x".repeat(511)).map((s) => s.length)).toEqual([255, 255, 1]);
  });
});
