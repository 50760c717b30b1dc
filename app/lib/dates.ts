// Date formatting used across screens: en-IN in India Standard Time, so the server and the browser
// render the same text.
const TZ = "Asia/Kolkata";
const short = new Intl.DateTimeFormat("en-IN", { timeZone: TZ, day: "numeric", month: "short", year: "numeric" });
const long = new Intl.DateTimeFormat("en-IN", { timeZone: TZ, day: "numeric", month: "long", year: "numeric" });
const withTime = new Intl.DateTimeFormat("en-IN", {
  timeZone: TZ,
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});

const toDate = (d: Date | string) => (typeof d === "string" ? new Date(d) : d);

export const formatShortDate = (d: Date | string) => short.format(toDate(d));
export const formatLongDate = (d: Date | string) => long.format(toDate(d));
export const formatDateTime = (d: Date | string) => withTime.format(toDate(d));
