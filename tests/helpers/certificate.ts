// A self-signed certificate made for a test with Debian's openssl: the TLS servers the tests start
// (an SMTP server offering STARTTLS, Dovecot, the SNS fake's HTTPS) present it, and a client that
// is told to trust it checks it as it would a real one.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

export type TestCertificate = { key: string; cert: string };

/**
 * An RSA-2048 key and a certificate for `commonName` valid two days, with `altNames` (e.g.
 * "DNS:localhost", "IP:127.0.0.1") as its subjectAltName; PEM text of both.
 */
export function selfSignedCertificate(
  commonName = "localhost",
  altNames: readonly string[] = ["DNS:localhost", "IP:127.0.0.1"],
): TestCertificate {
  const dir = mkdtempSync(path.join(tmpdir(), "crm-test-cert-"));
  try {
    const keyFile = path.join(dir, "key.pem");
    const certFile = path.join(dir, "cert.pem");
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-sha256"],
        ...["-subj", `/CN=${commonName}`, "-addext", `subjectAltName=${altNames.join(",")}`],
        ...["-keyout", keyFile, "-out", certFile],
      ],
      { stdio: "pipe" },
    );
    return { key: readFileSync(keyFile, "utf8"), cert: readFileSync(certFile, "utf8") };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
