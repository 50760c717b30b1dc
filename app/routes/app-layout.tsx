// The signed-in shell: side navigation, top bar with bell and avatar, and the client
// side of the session (token from the URL, 5-minute re-check, identity check).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppShell } from "~/components/app-shell";
import { TimeZoneProvider } from "~/components/date-time";
import { MENU_NOTIFICATIONS } from "~/lib/notifications";
import { requireUser } from "~/services/auth.server";
import { listNotifications } from "~/services/notifications.server";
import { isOwner } from "~/services/sign-up.server";
import { viewerTimeZone } from "~/services/time-zone.server";
import { toPublicUser } from "~/services/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [{ notifications, unreadCount }, owner] = await Promise.all([
    listNotifications(user.id, { take: MENU_NOTIFICATIONS }),
    isOwner(user.id),
  ]);
  return { user: toPublicUser(user), owner, notifications, unreadCount, ...viewerTimeZone(request, user) };
}

export default function AppLayout() {
  const { user, owner, notifications, unreadCount, timeZone, source } = useLoaderData<typeof loader>();
  return (
    <TimeZoneProvider timeZone={timeZone} source={source}>
      <AppShell user={user} owner={owner} notifications={notifications} unreadCount={unreadCount}>
        <Outlet />
      </AppShell>
    </TimeZoneProvider>
  );
}

export function shouldRevalidate() {
  return true;
}
