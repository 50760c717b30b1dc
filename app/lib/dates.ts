// Date formatting used across screens and exports, in the viewer's time zone: the signed-in
// user's choice on /profile, else the zone their browser reported (docs/decisions/0016-time-zones.md).
// The server and the browser format with the same zone, taken from loader data, so the page React
// hydrates reads exactly as the server wrote it. Every date a screen shows goes through here (or
// through the <DateTime> component, which calls it), never through toLocaleString.

/** The zone used before anyone has said one (no choice, no browser report): India, as the rupees. */
export const DEFAULT_TIME_ZONE = "Asia/Kolkata";
const LOCALE = "en-IN";
/** The cookie in which the browser reports its own zone (set by the page's inline script). */
export const TIME_ZONE_COOKIE = "crm_tz";
/** Where the zone came from: the user's choice, their browser's report, or neither. */
export type TimeZoneSource = "profile" | "browser" | "default";
/**
 * IANA names are an area and a place, letters, digits and _ + - ("America/Argentina/Buenos_Aires"),
 * or UTC. A bare abbreviation is refused though the runtime knows some: "IST" is India or Israel
 * or Ireland, and "EST" resolves to Panama, which never changes its clocks.
 */
const ZONE_SHAPE = /^(?:UTC|[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){1,2})$/i;

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(kind === "parts" ? "en-US" : LOCALE, { ...options, timeZone });
    // Bounded: a few kinds times the zones of the users this process has served.
    if (formatters.size > 2000) formatters.clear();
    formatters.set(key, f);
  }
  return f;
}

/**
 * The zone's canonical name if `value` is an IANA time zone this runtime knows ("asia/kolkata" →
 * "Asia/Kolkata" or the runtime's own spelling), else null. Offsets ("+05:30") and abbreviations
 * ("IST") are not zones: they say nothing of daylight saving time.
 */
export function canonicalTimeZone(value: string): string | null {
  if (value.length > 64 || !ZONE_SHAPE.test(value)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The zones offered on /profile: the runtime's list, with UTC. */
export function timeZoneNames(): string[] {
  const names = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return names.includes("UTC") ? names : ["UTC", ...names];
}

const toDate = (d: Date | string | number) => (d instanceof Date ? d : new Date(d));

/** "23 Nov 2026" in the zone. */
export const formatShortDate = (d: Date | string | number, timeZone: string) =>
  formatter("short", timeZone, { day: "numeric", month: "short", year: "numeric" }).format(toDate(d));
/**
 * A calendar day kept as text ("2026-11-16", such as a week's Monday in the dashboard's charts) in
 * the short format, "16 Nov 2026": a day is not an instant, so no zone moves it. Anything that is
 * not such a day is returned as it is.
 */
export function formatDay(day: string): string {
  const ms = /^\d{4}-\d{2}-\d{2}$/.test(day) ? Date.parse(`${day}T00:00:00.000Z`) : Number.NaN;
  // Date.parse rolls "2026-02-31" over into March: such a text is no day.
  if (Number.isNaN(ms) || isoFromEpochMs(ms).slice(0, 10) !== day) return day;
  return formatShortDate(ms, "UTC");
}

/** "23 November 2026" in the zone. */
export const formatLongDate = (d: Date | string | number, timeZone: string) =>
  formatter("long", timeZone, { day: "numeric", month: "long", year: "numeric" }).format(toDate(d));
/** "23 Nov 2026, 11:58 pm" in the zone. */
export const formatDateTime = (d: Date | string | number, timeZone: string) =>
  formatter("dateTime", timeZone, {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(toDate(d));

/** The zone's offset from UTC at that instant, in minutes (+330 for India, -300 for New York in winter). */
export function zoneOffsetMinutes(d: Date | string | number, timeZone: string): number {
  const ms = toDate(d).getTime();
  const whole = Math.floor(ms / 1000) * 1000;
  const parts = formatter("parts", timeZone, {
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    era: "short",
  }).formatToParts(whole);
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const era = parts.find((p) => p.type === "era")?.value;
  const year = era === "BC" ? 1 - get("year") : get("year");
  const local = Date.UTC(year, get("month") - 1, get("day"), get("hour") % 24, get("minute"), get("second"));
  // Date.UTC maps years 0-99 to 1900-1999; no zone's offset is anywhere near a century.
  const fixed = year >= 0 && year < 100 ? new Date(local).setUTCFullYear(year) : local;
  return Math.round((fixed - whole) / 60_000);
}

/** "+05:30", "-05:00", "+00:00". */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${pad2(Math.floor(abs / 60))}:${pad2(abs % 60)}`;
}

/**
 * ISO 8601 with the zone's offset, to the millisecond: "2026-11-23T23:58:00.000+05:30" for
 * 18:28 UTC in India. What exports write, so a spreadsheet shows the user's wall-clock time and
 * still knows the instant.
 */
export function isoInZone(d: Date | string | number, timeZone: string): string {
  const ms = toDate(d).getTime();
  const offset = zoneOffsetMinutes(ms, timeZone);
  return `${isoFromEpochMs(ms + offset * 60_000).slice(0, -1)}${formatOffset(offset)}`;
}

/** A datetime-local input's value: "2026-11-30T09:00". */
const WALL_TIME = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)$/;

/** The wall-clock time of an instant in the zone, as a datetime-local input shows it: "2026-11-30T09:00". */
export const wallTimeOf = (d: Date | string | number, timeZone: string) => isoInZone(d, timeZone).slice(0, 16);

/**
 * The instant a wall-clock time ("2026-11-30T09:00", as a datetime-local input gives it) names in
 * the zone, as unix milliseconds; null when the text is not such a time or the date does not exist
 * (30 February). A time a clock change skips (02:30 when clocks jump from 02:00 to 03:00) is taken
 * with the offset before the jump, so it lands just after it (03:30); one it reads twice (clocks
 * going back) is the first of the two.
 */
export function wallTimeToMs(value: string, timeZone: string): number | null {
  const m = WALL_TIME.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1).map(Number);
  const utc = Date.UTC(year, month - 1, day, hour, minute);
  const back = new Date(utc);
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59) return null;
  // The zone's offsets a day before and a day after: around a clock change they differ, and the
  // time is read with each (no zone changes its clocks twice in two days).
  const before = utc - zoneOffsetMinutes(utc - DAY_MS, timeZone) * 60_000;
  const after = utc - zoneOffsetMinutes(utc + DAY_MS, timeZone) * 60_000;
  const readings = [before, after].filter((ms) => wallTimeOf(ms, timeZone) === value);
  // Read twice (clocks going back): the first. Never read (clocks jumping): the offset before the
  // jump, which lands the time just after it.
  return readings.length > 0 ? Math.min(...readings) : before;
}

/** "India Standard Time", "Eastern Daylight Time": the zone's name at that instant. */
export function zoneName(d: Date | string | number, timeZone: string): string {
  const parts = formatter("zoneName", timeZone, { timeZoneName: "long" }).formatToParts(toDate(d));
  return parts.find((p) => p.type === "timeZoneName")?.value ?? timeZone;
}

/**
 * The tooltip of a shown date: the full date and time, the zone's name, its IANA id and offset,
 * e.g. "Monday, 23 November 2026 at 11:58 pm, India Standard Time (Asia/Kolkata, UTC+05:30)".
 */
export function dateTitle(d: Date | string | number, timeZone: string): string {
  const date = toDate(d);
  const full = formatter("full", timeZone, { dateStyle: "full", timeStyle: "short" }).format(date);
  return `${full}, ${zoneName(date, timeZone)} (${timeZone}, UTC${formatOffset(zoneOffsetMinutes(date, timeZone))})`;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);
const DAY_MS = 86_400_000;
/** 9999-12-31T23:59:59.999Z: up to here an instant has a four-digit year. */
const LAST_FOUR_DIGIT_MS = 253_402_300_799_999;

/**
 * `new Date(ms).toISOString()`, exactly, for epoch milliseconds, without the Date: about three
 * times faster, which counts where a response carries many timestamps (the audience preview).
 * Whole milliseconds from 1970 to year 9999 are formatted here (civil-from-days, proleptic
 * Gregorian, as ECMAScript does); anything else goes to the Date, so it also throws the same.
 */
export function isoFromEpochMs(ms: number): string {
  if (!(ms >= 0 && ms <= LAST_FOUR_DIGIT_MS) || ms % 1 !== 0) return new Date(ms).toISOString();
  const days = Math.floor(ms / DAY_MS);
  let t = ms - days * DAY_MS;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  const hours = Math.floor(t / 3_600_000);
  t -= hours * 3_600_000;
  const minutes = Math.floor(t / 60_000);
  t -= minutes * 60_000;
  const seconds = Math.floor(t / 1000);
  t -= seconds * 1000;
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${pad3(t)}Z`;
}

/** A calendar date as YYYY-MM-DD that exists (no 2025-02-30): it round-trips through a UTC date. */
export function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}
