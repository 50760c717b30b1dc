import { describe, expect, it } from "vitest";
import {
  campaignStatus,
  deliveryChip,
  deliveryId,
  deliveryKey,
  deliveryLogStatus,
  deliveryStats,
  listSuccessChip,
  parseDeliveryId,
  percent,
  performanceRates,
  personalise,
  previewMessage,
  progressPercent,
  successBand,
  figuresMayChange,
  FIGURES_SETTLE_MS,
} from "~/lib/campaigns";

const counters = {
  audienceSize: 100,
  pendingCount: 10,
  sentCount: 5,
  deliveredCount: 70,
  failedCount: 10,
  bouncedCount: 5,
  cancelledCount: 0,
  suppressedCount: 0,
  complainedCount: 0,
  openedCount: 20,
  clickedCount: 4,
};

describe("campaign rules", () => {
  it("reads a missing or unknown status as Completed, any case as itself", () => {
    expect(campaignStatus(undefined)).toBe("Completed");
    expect(campaignStatus("")).toBe("Completed");
    expect(campaignStatus("active")).toBe("Active");
    expect(campaignStatus("PAUSED")).toBe("Paused");
    expect(campaignStatus("nonsense")).toBe("Completed");
  });

  it("labels and colours delivery statuses without case, anything else Unknown", () => {
    expect(deliveryChip("DELIVERED")).toEqual({ label: "Delivered", colour: "success" });
    expect(deliveryChip("pending")).toEqual({ label: "Pending", colour: "warning" });
    expect(deliveryChip("Sent")).toEqual({ label: "Sent", colour: "primary" });
    expect(deliveryChip("bounced")).toEqual({ label: "Bounced", colour: "error" });
    expect(deliveryChip("failed")).toEqual({ label: "Failed", colour: "error" });
    expect(deliveryChip("cancelled")).toEqual({ label: "Cancelled", colour: "default" });
    expect(deliveryChip("suppressed")).toEqual({ label: "Suppressed", colour: "secondary" });
    expect(deliveryChip("deferred")).toEqual({ label: "Deferred", colour: "info" });
    // Deferred is derived: a pending row with details (a temporary answer, a retry waiting).
    expect(deliveryLogStatus("pending", "")).toBe("pending");
    expect(deliveryLogStatus("pending", "Attempt 1 failed, retrying: 451 4.3.0 Try later")).toBe("deferred");
    expect(deliveryLogStatus("suppressed", "Not sent: the address was unsubscribed on 25 Nov 2026")).toBe("suppressed");
    expect(deliveryChip("opened")).toEqual({ label: "Unknown", colour: "default" });
    expect(deliveryChip(null)).toEqual({ label: "Unknown", colour: "default" });
  });

  it("makes the delivery figures from the counters: sent + failed + cancelled + pending is the audience", () => {
    const s = deliveryStats(counters);
    expect(s).toEqual({
      sent: 80,
      delivered: 70,
      failed: 10,
      bounced: 5,
      complained: 0,
      cancelled: 0,
      suppressed: 0,
      opened: 20,
      clicked: 4,
      pending: 10,
      attempted: 85,
      successRate: "82.4%",
      successRateValue: 82.4,
    });
    expect(s.sent + s.failed + s.cancelled + s.pending).toBe(counters.audienceSize);
    const cancelled = deliveryStats({ ...counters, pendingCount: 0, cancelledCount: 10 });
    expect(cancelled.sent + cancelled.failed + cancelled.cancelled + cancelled.pending).toBe(counters.audienceSize);
    expect(progressPercent(counters)).toBe(90);
    expect(progressPercent({ ...counters, pendingCount: 0, cancelledCount: 10 } as typeof counters)).toBe(90);
    expect(progressPercent({ ...counters, audienceSize: 0 })).toBe(0);
    // Rows the send left out as suppressed are done with: they count toward progress and the sum.
    const allDone = { ...counters, pendingCount: 0, suppressedCount: 10 };
    const suppressed = deliveryStats(allDone);
    expect(
      suppressed.sent + suppressed.failed + suppressed.cancelled + suppressed.suppressed + suppressed.pending,
    ).toBe(counters.audienceSize);
    expect(progressPercent(allDone)).toBe(100);
    // A complaint is a delivered message reported as spam: still sent, still reached the mailbox.
    const complained = deliveryStats({ ...counters, deliveredCount: 68, complainedCount: 2 });
    expect(complained).toMatchObject({ sent: 80, delivered: 68, complained: 2, attempted: 85, successRate: "82.4%" });
    expect(complained.sent + complained.failed + complained.cancelled + complained.pending).toBe(counters.audienceSize);
    expect(progressPercent({ ...counters, deliveredCount: 68, complainedCount: 2 })).toBe(90);
    // A draft has an audience size (counted when saved) and no rows yet.
    const draft = { ...counters, pendingCount: 0, sentCount: 0, deliveredCount: 0, failedCount: 0, bouncedCount: 0 };
    expect(progressPercent(draft)).toBe(0);
  });

  it("shows no success rate before anything was attempted, never a red 0.0%", () => {
    const none = deliveryStats({ ...counters, sentCount: 0, deliveredCount: 0, failedCount: 0, bouncedCount: 0 });
    expect(none.successRate).toBe("—");
    expect(none.successRateValue).toBeNull();
    const allFailed = deliveryStats({ ...counters, deliveredCount: 0, bouncedCount: 0 });
    expect(allFailed.successRate).toBe("0.0%");
  });

  it("keeps a campaign's screens refreshing while its figures may still change", () => {
    const now = Date.parse("2026-11-25T10:00:00Z");
    const at = (msAgo: number) => new Date(now - msAgo).toISOString();
    const c = { pendingCount: 0, updatedAt: at(10 * 60_000) };
    expect(figuresMayChange({ ...c, status: "Active" }, now)).toBe(true);
    expect(figuresMayChange({ ...c, status: "Paused" }, now)).toBe(true);
    expect(figuresMayChange({ ...c, status: "Draft" }, now)).toBe(false);
    // A cancel ends the queued rows in the background; receipts and opens arrive after completion.
    expect(figuresMayChange({ ...c, status: "Cancelled", pendingCount: 12 }, now)).toBe(true);
    expect(figuresMayChange({ ...c, status: "Completed", updatedAt: at(30_000) }, now)).toBe(true);
    expect(figuresMayChange({ ...c, status: "Completed" }, now)).toBe(false);
    expect(figuresMayChange({ ...c, status: "Completed", updatedAt: at(FIGURES_SETTLE_MS + 1) }, now)).toBe(false);
  });

  it("bands the success rate: 90 Excellent, 70 Good, 50 Fair, below Poor", () => {
    expect([95, 90, 89.9, 70, 69.9, 50, 49.9, 0].map(successBand)).toEqual([
      "Excellent",
      "Excellent",
      "Good",
      "Good",
      "Fair",
      "Fair",
      "Poor",
      "Poor",
    ]);
  });

  it("colours the list chip: below 60 error, below 90 warning, else success", () => {
    expect(listSuccessChip(59, 41)).toEqual({ value: 59, colour: "error" });
    expect(listSuccessChip(60, 40)).toEqual({ value: 60, colour: "warning" });
    expect(listSuccessChip(89, 11)).toEqual({ value: 89, colour: "warning" });
    expect(listSuccessChip(90, 10)).toEqual({ value: 90, colour: "success" });
    expect(listSuccessChip(0, 0)).toBeNull();
    expect(listSuccessChip(0, 4)).toEqual({ value: 0, colour: "error" });
  });

  it("gives the notification's rates with one decimal, the open rate only when something was opened", () => {
    expect(performanceRates({ audienceSize: 3, sent: 2, opened: 1 })).toEqual({ deliveryRate: 66.7, openRate: 50 });
    expect(performanceRates({ audienceSize: 3, sent: 2, opened: 0 })).toEqual({ deliveryRate: 66.7, openRate: null });
    expect(percent(1, 0)).toBe(0);
  });

  it("makes delivery ids from the campaign's time and the row, and reads them back", () => {
    const id = deliveryId("6743a1b2c3d4e5f601234567", 255);
    expect(id).toBe("6743a1b200000000000000ff");
    expect(parseDeliveryId(id)).toEqual({ prefix: "6743a1b2", seq: 255, retries: 0 });
    expect(deliveryKey("6743a1b2c3d4e5f601234567", 255, 0)).toBe(id);
    expect(deliveryKey("6743a1b2c3d4e5f601234567", 255, 2)).toBe(`${id}r2`);
    expect(parseDeliveryId(`${id}r2`)).toEqual({ prefix: "6743a1b2", seq: 255, retries: 2 });
    expect(parseDeliveryId(`${id}r0`)).toBeNull();
    expect(parseDeliveryId("6743a1b2000000000000000")).toBeNull();
    expect(parseDeliveryId("6743a1b20000000000000000")).toBeNull();
    expect(parseDeliveryId("zz43a1b2000000000000000f")).toBeNull();
  });

  it("personalises every {NAME}; the preview replaces only the first", () => {
    expect(personalise("Hi {NAME}, {NAME}!", "Asha")).toBe("Hi Asha, Asha!");
    expect(personalise("Hi {NAME}", "  ")).toBe("Hi Customer");
    expect(previewMessage("Hi {NAME}, {NAME}!", "Asha")).toBe("Hi Asha, {NAME}!");
  });
});
