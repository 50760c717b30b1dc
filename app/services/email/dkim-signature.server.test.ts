// A message signed with a generated key verifies with a real DKIM verifier (mailauth) that looks the
// key up in "DNS" answering exactly the record dnsRecordsFor gives to publish. The message is built
// and signed as the SMTP channel does it (mime.server.ts, dkim-signature.server.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { dkimVerify } from "mailauth";
import { afterAll, describe, expect, it } from "vitest";
import { type DkimSigningKey, dnsRecordsFor, generateDkimKey, loadDkimKey, readDkimKey } from "./dkim-keys.server";
import { DKIM_OVERSIGNED_HEADERS, dkimKey, signHeaders, signInThread } from "./dkim-signature.server";
import { buildMessage } from "./mime.server";

const dataDir = mkdtempSync(path.join(tmpdir(), "crm-dkim-verify-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** A resolver that knows only the given TXT records, as DNS carries them (lists of strings). */
function dnsWith(records: Record<string, string[]>) {
  const asked: string[] = [];
  const resolver = async (name: string, type: string): Promise<string[][]> => {
    asked.push(`${type} ${name}`);
    const strings = type === "TXT" ? records[name] : undefined;
    if (!strings) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: "ENOTFOUND" });
    return [strings];
  };
  return { resolver, asked };
}

async function signed(dkim: DkimSigningKey, text: string, from = { name: "Shop", address: "news@shop.example.in" }) {
  const { headers, body } = buildMessage({
    id: "6743a1b20000000000000001",
    from,
    to: { name: "Asha", address: "asha@example.net" },
    subject: "Diwali offers — 20% off",
    text,
    html: `<p>${text}</p>`,
    unsubscribeUrl: "https://crm.example/u/tok",
  });
  const key = dkimKey(dkim);
  return `${await signHeaders(key, signInThread(key), headers, body)}\r\n\r\n${body}`;
}

describe("DKIM signatures with a generated key", { timeout: 60_000 }, () => {
  const { key } = generateDkimKey(dataDir, "shop.example.in", { selector: "crm202611" });
  const records = dnsRecordsFor(key);
  const dns = dnsWith({ [records.dkim.name]: records.dkim.strings });

  it("verify against the published DKIM record; a tampered body or header fails", async () => {
    expect(records.dkim.strings.join("")).toBe(records.dkim.value);
    const signingKey = loadDkimKey(dataDir, "shop.example.in")!;
    const message = await signed(signingKey, "Hello Asha, our sale starts today.");
    expect(message).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=shop\.example\.in;/m);
    expect(message).toMatch(/\bs=crm202611;/);

    const good = await dkimVerify(Buffer.from(message), { resolver: dns.resolver });
    expect(dns.asked).toEqual(["TXT crm202611._domainkey.shop.example.in"]);
    expect(good.results).toHaveLength(1);
    expect(good.results[0]!.status.result, good.results[0]!.info).toBe("pass");
    expect(good.results[0]!.signingDomain).toBe("shop.example.in");
    expect(good.results[0]!.status.aligned).toBe("shop.example.in");

    const body = message.replace("our sale starts today", "our sale starts tomorrow");
    expect(body).not.toBe(message);
    const tamperedBody = await dkimVerify(Buffer.from(body), { resolver: dns.resolver });
    expect(tamperedBody.results[0]!.status.result).toBe("neutral");
    expect(tamperedBody.results[0]!.status.comment).toMatch(/body hash did not verify/);

    const subject = message.replace(/^Subject: .*$/m, "Subject: Free money");
    const tamperedHeader = await dkimVerify(Buffer.from(subject), { resolver: dns.resolver });
    expect(tamperedHeader.results[0]!.status.result).toBe("fail");
  });

  it("fails with another key's record; after a rotation both selectors' records are needed while old mail is in flight", async () => {
    const message = await signed(loadDkimKey(dataDir, "shop.example.in")!, "Hello again.");
    const other = generateDkimKey(dataDir, "other.example.in", { selector: "crm202611" }).key;
    const wrongKey = dnsWith({ [records.dkim.name]: dnsRecordsFor(other).dkim.strings });
    const wrong = await dkimVerify(Buffer.from(message), { resolver: wrongKey.resolver });
    expect(wrong.results[0]!.status.result).toBe("fail");

    const rotated = generateDkimKey(dataDir, "shop.example.in", { selector: "crm202612", force: true }).key;
    expect(readDkimKey(dataDir, "shop.example.in")!.selector).toBe("crm202612");
    const rotatedMessage = await signed(loadDkimKey(dataDir, "shop.example.in")!, "After the rotation.");
    // Until the new record is published, the new signatures do not verify ...
    const unpublished = await dkimVerify(Buffer.from(rotatedMessage), { resolver: dns.resolver });
    expect(unpublished.results[0]!.status.result).not.toBe("pass");
    // ... and once both are, old mail in flight and new mail both do.
    const both = dnsWith({
      [records.dkim.name]: records.dkim.strings,
      [dnsRecordsFor(rotated).dkim.name]: dnsRecordsFor(rotated).dkim.strings,
    });
    for (const m of [message, rotatedMessage]) {
      const result = await dkimVerify(Buffer.from(m), { resolver: both.resolver });
      expect(result.results[0]!.status.result, result.results[0]!.info).toBe("pass");
    }
  });
});

describe("over-signing (RFC 6376 8.15)", { timeout: 60_000 }, () => {
  const { key } = generateDkimKey(dataDir, "oversign.example.in", { selector: "crm202611" });
  const records = dnsRecordsFor(key);
  const dns = dnsWith({ [records.dkim.name]: records.dkim.strings });
  const headersOf = (message: string) => message.slice(0, message.indexOf("\r\n\r\n"));

  it("names each header that matters once more in h= than the message has it; a copy added above fails the signature", async () => {
    const message = await signed(loadDkimKey(dataDir, "oversign.example.in")!, "Hello Asha.", {
      name: "Shop",
      address: "news@oversign.example.in",
    });
    const h = /\bh=([^;]+);/.exec(message.replace(/\r\n[ \t]/g, ""))![1].split(":");
    const head = headersOf(message);
    for (const name of DKIM_OVERSIGNED_HEADERS) {
      const present = head.split(/\r\n(?![ \t])/).filter((f) => f.toLowerCase().startsWith(`${name.toLowerCase()}:`));
      if (name !== "Reply-To") expect(present.length, name).toBe(1);
      expect(h.filter((n) => n.toLowerCase() === name.toLowerCase()).length, name).toBe(present.length + 1);
    }
    const good = await dkimVerify(Buffer.from(message), { resolver: dns.resolver });
    expect(good.results[0]!.status.result, good.results[0]!.info).toBe("pass");

    // A second Subject or From put above the signed one (where some readers look first) breaks it.
    for (const added of ["Subject: Free money", "From: Bank <alerts@bank.example>", "Reply-To: x@evil.example"]) {
      const tampered = await dkimVerify(Buffer.from(`${added}\r\n${message}`), { resolver: dns.resolver });
      expect(tampered.results[0]!.status.result, added).toBe("fail");
    }
  });
});
