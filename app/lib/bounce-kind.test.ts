import { describe, expect, it } from "vitest";
import { bounceKind } from "~/lib/bounce-kind";

describe("bounceKind", () => {
  it("calls an address that does not work a hard bounce, and any other failure soft", () => {
    expect(bounceKind("5.1.1", 550)).toBe("hard");
    expect(bounceKind("5.1.10", undefined)).toBe("hard");
    // Refused for its content or by policy, a full mailbox: about the message, not the address.
    expect(bounceKind("5.7.1", 550)).toBe("soft");
    expect(bounceKind("5.2.2", 552)).toBe("soft");
    expect(bounceKind("4.2.2", 452)).toBe("soft");
    // Without an enhanced code, the reply codes that name a missing mailbox.
    expect(bounceKind(undefined, 550)).toBe("hard");
    expect(bounceKind(undefined, 553)).toBe("hard");
    expect(bounceKind(undefined, 554)).toBe("soft");
    expect(bounceKind(undefined, 421)).toBe("soft");
    expect(bounceKind("2.0.0", 250)).toBeNull();
    expect(bounceKind(undefined, 250)).toBeNull();
    expect(bounceKind(undefined, undefined)).toBeNull();
    expect(bounceKind("x.1.1", undefined)).toBeNull();
  });
});
