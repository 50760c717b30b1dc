// The signed-in shell: side navigation, top bar with bell and avatar, and the client
// side of the session (token from the URL, 5-minute re-check, identity check).
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData } from "@remix-run/react";
import { AppShell } from "~/components/app-shell";
import { MENU_NOTIFICATIONS } from "~/lib/notifications";
import { requireUser } from "~/services/auth.server";
import { listNotifications } from "~/services/notifications.server";
import { toPublicUser } from "~/services/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const { notifications, unreadCount } = await listNotifications(user.id, { take: MENU_NOTIFICATIONS });
  return { user: toPublicUser(user), notifications, unreadCount };
}

export default function AppLayout() {
  const { user, notifications, unreadCount } = useLoaderData<typeof loader>();
  return (
    <AppShell user={user} notifications={notifications} unreadCount={unreadCount}>
      <Outlet />
    </AppShell>
  );
}

export function shouldRevalidate() {
  return true;
}
