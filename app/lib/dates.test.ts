// isoFromEpochMs must be exactly Date#toISOString: the audience preview's lastActive goes out
// through it. And dates in the viewer's time zone: the screens' formats, tooltips and the exports'
// ISO 8601 with offset, across zones and daylight saving time.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalTimeZone,
  dateTitle,
  formatDateTime,
  formatDay,
  formatLongDate,
  formatOffset,
  formatShortDate,
  isoFromEpochMs,
  isoInZone,
  timeZoneNames,
  wallTimeOf,
  wallTimeToMs,
  zoneOffsetMinutes,
} from "~/lib/dates";

// The example: an order made at 18:28 UTC read 11:58 pm, in India, without saying so.
const ORDER_AT = Date.UTC(2026, 10, 23, 18, 28);

describe("dates in a time zone", () => {
  it("formats the same instant in each zone's own wall-clock time and day", () => {
    expect(formatDateTime(ORDER_AT, "Asia/Kolkata")).toBe("23 Nov 2026, 11:58 pm");
    expect(formatDateTime(ORDER_AT, "America/New_York")).toBe("23 Nov 2026, 01:28 pm");
    expect(formatDateTime(ORDER_AT, "UTC")).toBe("23 Nov 2026, 06:28 pm");
    // 18:40 UTC is already the next day east of UTC+05:20.
    const late = Date.UTC(2026, 10, 23, 18, 40);
    expect(formatShortDate(late, "Asia/Kolkata")).toBe("24 Nov 2026");
    expect(formatShortDate(late, "Europe/London")).toBe("23 Nov 2026");
    expect(formatLongDate(late, "Pacific/Auckland")).toBe("24 November 2026");
    expect(formatLongDate(late, "Pacific/Honolulu")).toBe("23 November 2026");
    // An ISO string reads the same as the Date.
    expect(formatDateTime(new Date(ORDER_AT).toISOString(), "Asia/Tokyo")).toBe("24 Nov 2026, 03:28 am");
  });

  it("follows daylight saving time: New York is UTC-4 in summer and UTC-5 in winter", () => {
    // The US leaves DST on 1 Nov 2026 at 02:00 local (06:00 UTC): 01:30 happens twice.
    const firstOneThirty = Date.UTC(2026, 10, 1, 5, 30);
    const secondOneThirty = Date.UTC(2026, 10, 1, 6, 30);
    expect(formatDateTime(firstOneThirty, "America/New_York")).toBe("1 Nov 2026, 01:30 am");
    expect(formatDateTime(secondOneThirty, "America/New_York")).toBe("1 Nov 2026, 01:30 am");
    expect(zoneOffsetMinutes(firstOneThirty, "America/New_York")).toBe(-240);
    expect(zoneOffsetMinutes(secondOneThirty, "America/New_York")).toBe(-300);
    expect(isoInZone(firstOneThirty, "America/New_York")).toBe("2026-11-01T01:30:00.000-04:00");
    expect(isoInZone(secondOneThirty, "America/New_York")).toBe("2026-11-01T01:30:00.000-05:00");
    // Spring forward on 8 Mar 2026: 02:00 to 02:59 local never happens.
    expect(isoInZone(Date.UTC(2026, 2, 8, 6, 59, 59, 999), "America/New_York")).toBe("2026-03-08T01:59:59.999-05:00");
    expect(isoInZone(Date.UTC(2026, 2, 8, 7), "America/New_York")).toBe("2026-03-08T03:00:00.000-04:00");
    // London in summer and winter; the southern hemisphere the other way round.
    expect(zoneOffsetMinutes(Date.UTC(2026, 6, 1), "Europe/London")).toBe(60);
    expect(zoneOffsetMinutes(Date.UTC(2026, 0, 1), "Europe/London")).toBe(0);
    expect(zoneOffsetMinutes(Date.UTC(2026, 0, 1), "Australia/Sydney")).toBe(660);
    expect(zoneOffsetMinutes(Date.UTC(2026, 6, 1), "Australia/Sydney")).toBe(600);
  });

  it("writes ISO 8601 with the zone's offset, for the same instant", () => {
    expect(isoInZone(ORDER_AT, "Asia/Kolkata")).toBe("2026-11-23T23:58:00.000+05:30");
    expect(isoInZone(ORDER_AT, "Asia/Kathmandu")).toBe("2026-11-24T00:13:00.000+05:45");
    expect(isoInZone(ORDER_AT, "America/St_Johns")).toBe("2026-11-23T14:58:00.000-03:30");
    expect(isoInZone(ORDER_AT, "UTC")).toBe("2026-11-23T18:28:00.000+00:00");
    expect(isoInZone(ORDER_AT + 7, "Asia/Kolkata")).toBe("2026-11-23T23:58:00.007+05:30");
    expect(formatOffset(-570)).toBe("-09:30");
  });

  it("keeps the instant: parsing what isoInZone wrote gives it back, in any zone", () => {
    const zones = [
      "Asia/Kolkata",
      "America/New_York",
      "Europe/London",
      "Australia/Lord_Howe",
      "Pacific/Chatham",
      "UTC",
    ];
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1971, 0, 1), max: Date.UTC(2100, 0, 1) }),
        fc.constantFrom(...zones),
        (ms, zone) => {
          const iso = isoInZone(ms, zone);
          expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);
          expect(Date.parse(iso)).toBe(ms);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("names the zone in a date's tooltip", () => {
    expect(dateTitle(ORDER_AT, "Asia/Kolkata")).toBe(
      "Monday, 23 November 2026 at 11:58 pm, India Standard Time (Asia/Kolkata, UTC+05:30)",
    );
    expect(dateTitle(Date.UTC(2026, 6, 4, 16), "America/New_York")).toMatch(
      /^Saturday, 4 July 2026 at 12:00 pm, Eastern Daylight Time \(America\/New_York, UTC-04:00\)$/,
    );
  });

  it("accepts IANA zones only, under their canonical name", () => {
    expect(canonicalTimeZone("America/New_York")).toBe("America/New_York");
    expect(canonicalTimeZone("america/new_york")).toBe("America/New_York");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    // India's zone under either of its names.
    expect(["Asia/Kolkata", "Asia/Calcutta"]).toContain(canonicalTimeZone("Asia/Kolkata"));
    for (const bad of [
      "",
      "Mars/Olympus_Mons",
      "+05:30",
      "IST",
      "EST",
      "GMT",
      "IST ",
      "Asia/Kolkata; rm",
      "../etc/passwd",
      "x".repeat(100),
    ]) {
      expect(canonicalTimeZone(bad)).toBeNull();
    }
    const names = timeZoneNames();
    expect(names).toContain("UTC");
    expect(names).toContain("America/New_York");
    expect(names.every((n) => canonicalTimeZone(n) !== null)).toBe(true);
  });
});

describe("a wall-clock time in a zone (a scheduled campaign's time)", () => {
  it("names the instant that reads that time in the zone, across zones and daylight saving time", () => {
    const cases: [wall: string, zone: string, instant: string][] = [
      ["2026-11-30T09:00", "Asia/Kolkata", "2026-11-30T03:30:00.000Z"],
      // New York in winter (UTC-5) and in summer (UTC-4).
      ["2026-01-15T09:00", "America/New_York", "2026-01-15T14:00:00.000Z"],
      ["2026-07-15T09:00", "America/New_York", "2026-07-15T13:00:00.000Z"],
      // 02:30 on the night clocks jump from 02:00 to 03:00 does not exist: it lands just after the
      // jump (03:30), west and east of UTC.
      ["2026-03-08T02:30", "America/New_York", "2026-03-08T07:30:00.000Z"],
      ["2026-03-29T02:30", "Europe/Berlin", "2026-03-29T01:30:00.000Z"],
      ["2026-10-04T02:30", "Australia/Sydney", "2026-10-03T16:30:00.000Z"],
      // 02:30 on the night clocks go back from 03:00 to 02:00 happens twice: the first one.
      ["2026-10-25T02:30", "Europe/Berlin", "2026-10-25T00:30:00.000Z"],
      ["2026-11-01T01:30", "America/New_York", "2026-11-01T05:30:00.000Z"],
    ];
    for (const [wall, zone, instant] of cases)
      expect(new Date(wallTimeToMs(wall, zone) ?? 0).toISOString(), `${wall} in ${zone}`).toBe(instant);
  });

  it("reads back as the same wall-clock time, and refuses what is not one", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 0, 1) }),
        fc.constantFrom(
          "Asia/Kolkata",
          "America/New_York",
          "Europe/London",
          "Europe/Berlin",
          "Australia/Sydney",
          "Australia/Lord_Howe",
          "UTC",
        ),
        (ms, zone) => {
          const minute = Math.floor(ms / 60_000) * 60_000;
          const wall = wallTimeOf(minute, zone);
          const back = wallTimeToMs(wall, zone);
          expect(back).not.toBeNull();
          expect(wallTimeOf(back ?? 0, zone)).toBe(wall);
        },
      ),
    );
    for (const bad of ["2026-02-30T09:00", "2026-11-30 09:00", "2026-11-30T24:00", "2026-11-30T09:60", "", "tomorrow"])
      expect(wallTimeToMs(bad, "Asia/Kolkata")).toBeNull();
  });
});

describe("calendar days", () => {
  it("reads a YYYY-MM-DD day in the short format, the same day in every zone", () => {
    expect(formatDay("2026-11-16")).toBe("16 Nov 2026");
    expect(formatDay("2026-01-05")).toBe("5 Jan 2026");
    expect(formatDay("2028-02-29")).toBe(formatShortDate(Date.UTC(2028, 1, 29, 12), "Asia/Kolkata"));
  });

  it("leaves text that is no day as it is", () => {
    expect(formatDay("2026-02-31")).toBe("2026-02-31");
    expect(formatDay("16 Nov")).toBe("16 Nov");
    expect(formatDay("")).toBe("");
  });
});

describe("isoFromEpochMs", () => {
  it("equals Date#toISOString at the edges of its range and of days, months, years and leap days", () => {
    const edges = [
      0,
      1,
      999,
      1000,
      59_999,
      86_399_999,
      86_400_000,
      Date.UTC(2000, 1, 29, 23, 59, 59, 999),
      Date.UTC(2000, 2, 1),
      Date.UTC(2100, 1, 28, 12),
      Date.UTC(2100, 2, 1),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(2025, 0, 1),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
    ];
    for (const ms of edges) expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
  });

  it("falls back to the Date outside 1970 to 9999 and for fractions, and throws like it", () => {
    for (const ms of [-1, -86_400_001, Date.UTC(10000, 0, 1), Date.UTC(-5, 3, 2), 1.5, 8.64e15]) {
      expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
    }
    expect(() => isoFromEpochMs(Number.NaN)).toThrow(RangeError);
    expect(() => isoFromEpochMs(8.64e15 + 1)).toThrow(RangeError);
  });

  it("equals Date#toISOString on random instants", () => {
    fc.assert(
      fc.property(fc.integer({ min: -8.64e15, max: 8.64e15 }), (ms) => {
        expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (ms) => {
        expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });
});
