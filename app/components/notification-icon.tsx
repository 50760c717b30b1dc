import { Bell, Info, Megaphone, TrendingUp, Users, Target } from "lucide-react";

/** One icon per known type, and a default for anything else (docs/rules.md#notifications). */
export function NotificationIcon({ type, className = "h-5 w-5" }: { type: string; className?: string }) {
  const props = { className, "aria-hidden": true } as const;
  switch (type) {
    case "NEW_CAMPAIGN":
      return <Megaphone {...props} data-icon="campaign" />;
    case "NEW_SEGMENT":
      return <Target {...props} data-icon="segment" />;
    case "NEW_CUSTOMERS":
      return <Users {...props} data-icon="customers" />;
    case "CAMPAIGN_PERFORMANCE":
      return <TrendingUp {...props} data-icon="performance" />;
    case "SYSTEM":
      return <Info {...props} data-icon="system" />;
    default:
      return <Bell {...props} data-icon="default" />;
  }
}

const tints: Record<string, string> = {
  NEW_CAMPAIGN: "bg-orange-100 text-secondary",
  NEW_SEGMENT: "bg-purple-100 text-purple-700",
  NEW_CUSTOMERS: "bg-green-100 text-green-700",
  CAMPAIGN_PERFORMANCE: "bg-sky-100 text-sky-700",
  SYSTEM: "bg-primary-light text-primary",
};

export function NotificationBadgeIcon({ type }: { type: string }) {
  return (
    <span
      className={`flex h-9 w-9 shrink-0 items-center justify-center rounded-full ${tints[type] ?? "bg-slate-100 text-slate-600"}`}
    >
      <NotificationIcon type={type} className="h-4 w-4" />
    </span>
  );
}
