// Notification types and the pure rules (docs/rules.md#notifications) the bell and /notifications share.
export const NOTIFICATION_TYPES = [
  "NEW_CAMPAIGN",
  "NEW_SEGMENT",
  "NEW_CUSTOMERS",
  "CAMPAIGN_PERFORMANCE",
  "SYSTEM",
] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The filter view's categories and their display names, each mapped to its stored type. */
export const NOTIFICATION_FILTERS = [
  { key: "campaign", label: "Campaign", menu: "Campaigns", type: "NEW_CAMPAIGN" },
  { key: "segment", label: "Segment", menu: "Segments", type: "NEW_SEGMENT" },
  { key: "customers", label: "Customers", menu: "Customers", type: "NEW_CUSTOMERS" },
  { key: "performance", label: "Performance", menu: "Performance", type: "CAMPAIGN_PERFORMANCE" },
  { key: "system", label: "System", menu: "System", type: "SYSTEM" },
] as const;
export type NotificationFilterKey = (typeof NOTIFICATION_FILTERS)[number]["key"];

export function filterForType(type: string) {
  return NOTIFICATION_FILTERS.find((f) => f.type === type);
}

export const MAX_NOTIFICATIONS = 50;
export const MENU_NOTIFICATIONS = 5;
export const NEW_CUSTOMERS_THRESHOLD = 15;

/** The bell's badge: the count, capped at 99+. */
export function badgeText(unread: number): string | null {
  if (unread <= 0) return null;
  return unread > 99 ? "99+" : String(unread);
}

export function unreadText(unread: number): string {
  return unread > 0 ? `You have ${unread} unread message${unread === 1 ? "" : "s"}` : "No unread messages";
}

/** 'Just now' under a minute, then minutes, hours and days ago. */
export function relativeTime(date: Date | string, now: Date = new Date()): string {
  const then = typeof date === "string" ? new Date(date) : date;
  const seconds = Math.max(0, Math.floor((now.getTime() - then.getTime()) / 1000));
  if (seconds < 60) return "Just now";
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? "" : "s"} ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? "" : "s"} ago`;
  const days = Math.floor(hours / 24);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}
