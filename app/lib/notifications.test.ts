import { describe, expect, it } from "vitest";
import {
  MAX_NOTIFICATIONS,
  MENU_NOTIFICATIONS,
  NOTIFICATION_FILTERS,
  NOTIFICATION_TYPES,
  badgeText,
  filterForType,
  relativeTime,
  unreadText,
} from "./notifications";

describe("relativeTime", () => {
  const now = new Date("2026-11-22T10:00:00Z");
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it.each([
    [0, "Just now"],
    [59_999, "Just now"],
    [60_000, "1 minute ago"],
    [5 * 60_000 + 59_000, "5 minutes ago"],
    [59 * 60_000, "59 minutes ago"],
    [60 * 60_000, "1 hour ago"],
    [23 * 3_600_000 + 59 * 60_000, "23 hours ago"],
    [24 * 3_600_000, "1 day ago"],
    [40 * 86_400_000, "40 days ago"],
  ])("%i ms ago reads %s", (ms, text) => {
    expect(relativeTime(ago(ms), now)).toBe(text);
  });

  it("accepts ISO strings and treats a future date as just now", () => {
    expect(relativeTime(ago(2 * 3_600_000).toISOString(), now)).toBe("2 hours ago");
    expect(relativeTime(new Date(now.getTime() + 60_000), now)).toBe("Just now");
  });
});

describe("the bell's texts", () => {
  it.each([
    [0, null],
    [-3, null],
    [1, "1"],
    [99, "99"],
    [100, "99+"],
    [5000, "99+"],
  ])("badge for %i unread is %s", (n, text) => {
    expect(badgeText(n)).toBe(text);
  });

  it("says how many messages are unread, singular and plural", () => {
    expect(unreadText(0)).toBe("No unread messages");
    expect(unreadText(1)).toBe("You have 1 unread message");
    expect(unreadText(7)).toBe("You have 7 unread messages");
  });
});

describe("types and filters", () => {
  it("maps every stored type to one filter with its display and menu names", () => {
    expect(NOTIFICATION_FILTERS.map((f) => f.label)).toEqual([
      "Campaign",
      "Segment",
      "Customers",
      "Performance",
      "System",
    ]);
    expect(NOTIFICATION_FILTERS.map((f) => f.menu)).toEqual([
      "Campaigns",
      "Segments",
      "Customers",
      "Performance",
      "System",
    ]);
    for (const type of NOTIFICATION_TYPES) expect(filterForType(type)?.type).toBe(type);
    expect(filterForType("SOMETHING_ELSE")).toBeUndefined();
  });

  it("keeps 50 per user and lists 5 in the menu", () => {
    expect(MAX_NOTIFICATIONS).toBe(50);
    expect(MENU_NOTIFICATIONS).toBe(5);
  });
});
