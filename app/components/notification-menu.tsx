import { Popover, PopoverButton, PopoverPanel } from "@headlessui/react";
import { Link, useFetcher } from "@remix-run/react";
import { Bell } from "lucide-react";
import { useEffect } from "react";
import { useQuietRevalidate } from "~/components/quiet-revalidate";
import { NotificationBadgeIcon } from "~/components/notification-icon";
import { DateTime } from "~/components/date-time";
import type { NotificationDto } from "~/lib/dto";
import { badgeText, unreadText } from "~/lib/notifications";

/** Re-reads the page's data whenever the server pushes a notification change (SSE). */
export function useNotificationStream() {
  const revalidate = useQuietRevalidate();
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const source = new EventSource("/api/notifications/stream");
    source.addEventListener("notification", () => revalidate());
    return () => source.close();
  }, [revalidate]);
}

export function NotificationMenu({
  notifications,
  unreadCount,
}: {
  notifications: NotificationDto[];
  unreadCount: number;
}) {
  const fetcher = useFetcher();
  const badge = badgeText(unreadCount);
  return (
    <Popover className="relative">
      <PopoverButton className="btn-ghost relative" aria-label={`Notifications${badge ? ` (${badge} unread)` : ""}`}>
        <Bell className="h-5 w-5" />
        {badge ? (
          <span
            data-testid="notification-badge"
            className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-red-600 px-1 text-center text-[11px] font-semibold leading-5 text-white"
          >
            {badge}
          </span>
        ) : null}
      </PopoverButton>
      <PopoverPanel
        anchor={{ to: "bottom end", gap: 8 }}
        // Headless UI writes its own inline max-height from --anchor-max-height (default 100vh),
        // which beats a max-h class: the 400 px cap has to go through the variable.
        className="z-50 flex w-[320px] max-h-[400px] [--anchor-max-height:400px] flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-xl"
        data-testid="notification-menu"
      >
        {({ close }) => (
          <>
            <div className="flex items-start justify-between gap-2 border-b border-slate-100 px-4 py-3">
              <div>
                <h2 className="font-semibold text-slate-900">Notifications</h2>
                <p className="text-xs text-slate-500">{unreadText(unreadCount)}</p>
              </div>
              {unreadCount > 0 ? (
                <fetcher.Form method="post" action="/notifications">
                  <button
                    type="submit"
                    name="intent"
                    value="read-all"
                    className="text-xs font-medium text-primary hover:underline"
                  >
                    Mark all as read
                  </button>
                </fetcher.Form>
              ) : null}
            </div>
            <ul className="flex-1 overflow-y-auto">
              {notifications.length === 0 ? (
                <li className="px-4 py-8 text-center text-sm text-slate-500">No notifications yet</li>
              ) : (
                notifications.slice(0, 5).map((n) => (
                  <li key={n.id}>
                    <button
                      type="button"
                      data-testid="notification-item"
                      data-read={n.read}
                      onClick={() => {
                        if (!n.read)
                          fetcher.submit({ intent: "read", id: n.id }, { method: "post", action: "/notifications" });
                      }}
                      className={`flex w-full gap-3 px-4 py-3 text-left hover:bg-slate-50 ${n.read ? "" : "bg-primary-light/40"}`}
                    >
                      <NotificationBadgeIcon type={n.type} />
                      <span className="min-w-0 flex-1">
                        <span
                          className={`flex items-center gap-1.5 text-sm ${n.read ? "text-slate-700" : "font-bold text-slate-900"}`}
                        >
                          {n.read ? null : (
                            <span className="h-2 w-2 shrink-0 rounded-full bg-primary" aria-label="Unread" />
                          )}
                          <span className="truncate">{n.title}</span>
                        </span>
                        <span className="line-clamp-2 text-xs text-slate-600">{n.details}</span>
                        <DateTime value={n.date} className="text-[11px] text-slate-400" />
                      </span>
                    </button>
                  </li>
                ))
              )}
            </ul>
            <div className="border-t border-slate-100 p-2">
              <Link to="/notifications" onClick={() => close()} className="btn-ghost w-full text-primary">
                View All Notifications
              </Link>
            </div>
          </>
        )}
      </PopoverPanel>
    </Popover>
  );
}
