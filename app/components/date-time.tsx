// Dates on screen, in the viewer's time zone. The signed-in layout provides the zone from its
// loader, so the server's page and the hydrated one format with the same zone and read the same;
// each date carries a tooltip naming the zone. TimeZoneReporter is the inline script that tells
// the server the browser's own zone (a cookie), used until the user chooses one on /profile.
import { createContext, useContext, useEffect, useRef, type ReactNode } from "react";
import { useQuietRevalidate } from "~/components/quiet-revalidate";
import {
  DEFAULT_TIME_ZONE,
  TIME_ZONE_COOKIE,
  dateTitle,
  formatDateTime,
  formatLongDate,
  formatShortDate,
  type TimeZoneSource,
} from "~/lib/dates";

const TimeZoneContext = createContext<string>(DEFAULT_TIME_ZONE);

/** The zone dates are shown in. */
export const useTimeZone = () => useContext(TimeZoneContext);

export function TimeZoneProvider({
  timeZone,
  source,
  children,
}: {
  timeZone: string;
  source: TimeZoneSource;
  children: ReactNode;
}) {
  const revalidate = useQuietRevalidate();
  const asked = useRef(false);
  useEffect(() => {
    // A page rendered before the browser's zone was known (no cookie yet): the inline script has
    // set it by now, so load the data again once and show the dates in the browser's zone.
    if (source !== "default" || asked.current) return;
    asked.current = true;
    if (document.cookie.split("; ").some((c) => c.startsWith(`${TIME_ZONE_COOKIE}=`))) revalidate();
  }, [source, revalidate]);
  return <TimeZoneContext.Provider value={timeZone}>{children}</TimeZoneContext.Provider>;
}

const FORMATS = { short: formatShortDate, long: formatLongDate, dateTime: formatDateTime } as const;
export type DateFormat = keyof typeof FORMATS;

/** A date as "23 Nov 2026" (short), "23 November 2026" (long) or with the time, zone in the tooltip. */
export function DateTime({
  value,
  format = "short",
  className,
  testId,
}: {
  value: string | Date;
  format?: DateFormat;
  className?: string;
  testId?: string;
}) {
  const timeZone = useTimeZone();
  const date = value instanceof Date ? value : new Date(value);
  return (
    <time dateTime={date.toISOString()} title={dateTitle(date, timeZone)} className={className} data-testid={testId}>
      {FORMATS[format](date, timeZone)}
    </time>
  );
}

// Sets the cookie only when it is missing or says another zone, so a page load writes nothing
// in the usual case. Not a credential: any value is checked on the server.
const REPORT_SCRIPT = `(function(){try{var z=Intl.DateTimeFormat().resolvedOptions().timeZone;if(!z)return;var v="${TIME_ZONE_COOKIE}="+encodeURIComponent(z);if(document.cookie.split("; ").indexOf(v)<0)document.cookie=v+"; path=/; max-age=31536000; samesite=lax"}catch(e){}})()`;

/** The inline script that reports the browser's zone to the server in a cookie. */
export function TimeZoneReporter({ nonce }: { nonce: string }) {
  return <script nonce={nonce} dangerouslySetInnerHTML={{ __html: REPORT_SCRIPT }} />;
}
