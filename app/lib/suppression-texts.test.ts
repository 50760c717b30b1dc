import { describe, expect, it } from "vitest";
import { REASON_LABELS } from "~/services/suppressions.server";
import { REASON_CHIPS, SUPPRESSION_BADGES, addedMessage } from "./suppression-texts";

describe("suppression texts", () => {
  it("labels the reasons as the service does", () => {
    expect(REASON_CHIPS).toEqual(REASON_LABELS);
    expect(SUPPRESSION_BADGES.manual).toBe("Suppressed by hand");
    expect(SUPPRESSION_BADGES.unsubscribed).toBe("Unsubscribed");
  });

  it("says what an addition did", () => {
    expect(addedMessage({ added: 2, alreadySuppressed: 0 })).toBe("2 addresses added to the suppression list");
    expect(addedMessage({ added: 1, alreadySuppressed: 1 })).toBe(
      "1 address added to the suppression list; 1 was on it already",
    );
    expect(addedMessage({ added: 1200, alreadySuppressed: 3 })).toBe(
      "1,200 addresses added to the suppression list; 3 were on it already",
    );
    expect(addedMessage({ added: 0, alreadySuppressed: 1 })).toBe("That address is on the suppression list already");
    expect(addedMessage({ added: 0, alreadySuppressed: 4 })).toBe(
      "All 4 addresses are on the suppression list already",
    );
  });
});
