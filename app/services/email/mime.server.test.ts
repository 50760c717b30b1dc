// Quoted-printable as the HTML and text parts are sent: what a reader decodes (RFC 2045 6.7's
// rules, below) is the text given, byte for byte, whatever it holds ("=" on every line as in MJML's
// HTML, characters beyond ASCII, spaces and tabs at a line's end); no line passes 76 characters
// and a soft break never cuts an =XX.
import { describe, expect, it } from "vitest";
import { quotedPrintable } from "~/services/email/mime.server";

/** A random line of pieces that quoted-printable treats differently. */
function randomText(random: () => number): string {
  const pieces = ["a", "=", " ", "\t", "₹", "é", "x", "\u0000", "~", "Z", "हि", ".", "\r\n", "\u007f", '="', "= "];
  let text = "";
  const n = Math.floor(random() * 240);
  for (let i = 0; i < n; i++) text += pieces[Math.floor(random() * pieces.length)];
  return text;
}

/** RFC 2045's decoding: soft line breaks removed, each =XX the byte XX, the rest as it is. */
function decode(encoded: string): string {
  const joined = encoded.replace(/=\r\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === "=") {
      bytes.push(parseInt(joined.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(joined.charCodeAt(i));
  }
  return Buffer.from(bytes).toString("utf8");
}

/** A small seeded generator: the same lines on every run. */
function seeded(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

describe("quotedPrintable", () => {
  it("decodes to the text it was given, in lines of at most 76, never breaking an =XX", () => {
    const random = seeded(7);
    for (let t = 0; t < 3_000; t++) {
      const text = randomText(random);
      const encoded = quotedPrintable(text);
      expect(decode(encoded), JSON.stringify(text)).toBe(text);
      for (const line of encoded.split("\r\n")) {
        expect(line.length).toBeLessThanOrEqual(76);
        expect(line).toMatch(/^[\x21-\x7e \t]*$/);
        expect(line).not.toMatch(/[ \t]$/);
        // Every = but a final soft break starts an =XX.
        expect(line.replace(/=$/, "")).not.toMatch(/=(?![0-9A-F]{2})/);
      }
    }
  });

  it("writes an attribute's = as =3D and leaves printable ASCII as it is", () => {
    expect(quotedPrintable('<td style="color:#fff">₹640</td>')).toBe('<td style=3D"color:#fff">=E2=82=B9640</td>');
    expect(quotedPrintable("Plain words, no equals")).toBe("Plain words, no equals");
    expect(quotedPrintable("ends in a space ")).toBe("ends in a space=20");
  });
});
