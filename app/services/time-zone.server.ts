// Which time zone a request's dates are shown in: the user's choice on /profile, else the zone
// their browser reported in the crm_tz cookie, else DEFAULT_TIME_ZONE (docs/decisions/0016-time-zones.md).
import { DEFAULT_TIME_ZONE, TIME_ZONE_COOKIE, canonicalTimeZone, type TimeZoneSource } from "~/lib/dates";

/** The zone the browser reported, if the cookie holds a real one. */
export function reportedTimeZone(request: Request): string | null {
  const header = request.headers.get("Cookie");
  if (!header) return null;
  for (const pair of header.split(";")) {
    const at = pair.indexOf("=");
    if (at < 0 || pair.slice(0, at).trim() !== TIME_ZONE_COOKIE) continue;
    try {
      return canonicalTimeZone(decodeURIComponent(pair.slice(at + 1).trim()));
    } catch {
      return null;
    }
  }
  return null;
}

/** The zone to show this user's dates in, and where it came from. */
export function viewerTimeZone(
  request: Request,
  user: { timeZone: string | null },
): { timeZone: string; source: TimeZoneSource } {
  const chosen = user.timeZone ? canonicalTimeZone(user.timeZone) : null;
  if (chosen) return { timeZone: chosen, source: "profile" };
  const reported = reportedTimeZone(request);
  if (reported) return { timeZone: reported, source: "browser" };
  return { timeZone: DEFAULT_TIME_ZONE, source: "default" };
}
