// /notifications: the signed-in user's notifications, newest first, with a type filter, Mark All as
// Read, and a per-item menu to mark one read or delete it (after a confirm dialog). The action also
// serves the bell menu in the top bar. Everything works without JavaScript as plain forms and links.
import { parseWithZod } from "@conform-to/zod/v4";
import { Dialog, DialogPanel, DialogTitle, Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useFetcher, useLoaderData, useNavigate, useNavigation, useSearchParams } from "@remix-run/react";
import { CheckCheck, Filter, MoreVertical } from "lucide-react";
import { z } from "zod";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { useTimeZone } from "~/components/date-time";
import { NotificationBadgeIcon } from "~/components/notification-icon";
import { BRAND } from "~/lib/brand";
import { dateTitle } from "~/lib/dates";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { NOTIFICATION_FILTERS, filterForType, relativeTime, type NotificationFilterKey } from "~/lib/notifications";
import { requireUser } from "~/services/auth.server";
import { deleteNotification, listNotifications, markAllRead, markRead } from "~/services/notifications.server";
import { withSearchParams } from "~/lib/search-params";
import { PageHeader } from "~/components/page-header";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Notifications · ${BRAND}` }];

const FILTER_KEYS = NOTIFICATION_FILTERS.map((f) => f.key) as [NotificationFilterKey, ...NotificationFilterKey[]];
/** ?type= picks one filter; anything else shows all notifications. */
const FilterSchema = z.object({ type: z.enum(FILTER_KEYS).optional() });

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const query = parseWithZod(new URL(request.url).searchParams, { schema: FilterSchema });
  const key = query.status === "success" ? query.value.type : undefined;
  const filter = NOTIFICATION_FILTERS.find((f) => f.key === key) ?? null;
  const [{ notifications, unreadCount }, all] = await Promise.all([
    listNotifications(user.id, { type: filter?.type }),
    filter ? listNotifications(user.id, { take: 1 }) : null,
  ]);
  return {
    notifications,
    unreadCount: all?.unreadCount ?? unreadCount,
    filter: filter?.key ?? null,
    now: new Date().toISOString(),
  };
}

const IntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("read"), id: z.string().min(1) }),
  z.object({ intent: z.literal("read-all") }),
  z.object({ intent: z.literal("delete"), id: z.string().min(1) }),
]);

/** Mark one read, mark all read, delete: used by this screen and by the bell menu. */
export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const submission = parseWithZod(await request.formData(), { schema: IntentSchema });
  if (submission.status !== "success") return replyUnfinished(submission, "Unknown notification action");
  const intent = submission.value;
  try {
    if (intent.intent === "read") await markRead(user.id, intent.id);
    else if (intent.intent === "read-all") await markAllRead(user.id);
    else await deleteNotification(user.id, intent.id);
  } catch (error) {
    // Another user's notification, or one already deleted, is a 404 like any record that is not found.
    return replyRefused(submission, error, "Notification not found");
  }
  return submission.reply();
}

export default function Notifications() {
  const { notifications, unreadCount, filter, now } = useLoaderData<typeof loader>();
  const timeZone = useTimeZone();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const navigation = useNavigation();
  const fetcher = useFetcher();
  const deleting = params.get("delete");
  const activeFilter = NOTIFICATION_FILTERS.find((f) => f.key === filter);
  const withParams = (changes: Record<string, string | null>) => withSearchParams(params, changes);
  const closeDialog = () => navigate(withParams({ delete: null }), { replace: true, preventScrollReset: true });

  return (
    <div className="mx-auto max-w-4xl space-y-4">
      <PageHeader
        title="Notifications"
        actions={
          <div className="flex gap-2">
            <Menu as="div" className="relative">
              <MenuButton className="btn-secondary">
                <Filter className="h-4 w-4" /> Filter{activeFilter ? `: ${activeFilter.menu}` : ""}
              </MenuButton>
              <MenuItems
                anchor={{ to: "bottom end", gap: 6 }}
                className="z-50 w-56 rounded-xl border border-slate-200 bg-white py-1 shadow-xl focus:outline-none"
              >
                <MenuItem>
                  <Link
                    to={withParams({ type: null, delete: null })}
                    className="block px-4 py-2 text-sm data-[focus]:bg-slate-100"
                  >
                    All Notifications
                  </Link>
                </MenuItem>
                {NOTIFICATION_FILTERS.map((f) => (
                  <MenuItem key={f.key}>
                    <Link
                      to={withParams({ type: f.key, delete: null })}
                      className="block px-4 py-2 text-sm data-[focus]:bg-slate-100"
                    >
                      {f.menu}
                    </Link>
                  </MenuItem>
                ))}
              </MenuItems>
            </Menu>
            <Form method="post">
              <button type="submit" name="intent" value="read-all" className="btn-primary" disabled={unreadCount === 0}>
                <CheckCheck className="h-4 w-4" /> Mark All as Read
              </button>
            </Form>
          </div>
        }
      >
        <p className="text-slate-600">Stay updated with the latest activity in your CRM</p>
      </PageHeader>
      <noscript>
        <nav aria-label="Filter" className="flex flex-wrap gap-2 text-sm">
          <a className="text-primary underline" href="?">
            All Notifications
          </a>
          {NOTIFICATION_FILTERS.map((f) => (
            <a key={f.key} className="text-primary underline" href={`?type=${f.key}`}>
              {f.menu}
            </a>
          ))}
        </nav>
      </noscript>

      <section className="card divide-y divide-slate-100" aria-label="Notification list">
        {notifications.length === 0 ? (
          <div className="px-6 py-14 text-center">
            <p className="font-semibold text-slate-800">No notifications found</p>
            <p className="mt-1 text-sm text-slate-500">
              {activeFilter
                ? `You don't have any ${activeFilter.label} notifications`
                : "You don't have any notifications yet"}
            </p>
          </div>
        ) : (
          notifications.map((n) => {
            const chip = filterForType(n.type);
            return (
              <article
                key={n.id}
                data-testid="notification-row"
                data-read={n.read}
                className={`flex gap-3 px-4 py-4 sm:px-6 ${n.read ? "" : "bg-primary-light/30"}`}
              >
                <NotificationBadgeIcon type={n.type} />
                <div className="min-w-0 flex-1">
                  <h3 className={`flex items-center gap-1.5 ${n.read ? "text-slate-800" : "font-bold text-slate-900"}`}>
                    {n.read ? null : <span className="h-2 w-2 shrink-0 rounded-full bg-primary" aria-label="Unread" />}
                    {n.title}
                  </h3>
                  <p className="text-sm text-slate-600">{n.details}</p>
                  <div className="mt-1 flex items-center gap-2 text-xs text-slate-500">
                    <span className="rounded-full bg-slate-100 px-2 py-0.5 font-medium text-slate-700">
                      {chip?.label ?? "Other"}
                    </span>
                    <time dateTime={n.date} title={dateTitle(n.date, timeZone)}>
                      {relativeTime(n.date, new Date(now))}
                    </time>
                  </div>
                </div>
                <Menu as="div" className="relative">
                  <MenuButton className="btn-ghost" aria-label={`Actions for ${n.title}`}>
                    <MoreVertical className="h-4 w-4" />
                  </MenuButton>
                  <MenuItems
                    anchor={{ to: "bottom end", gap: 4 }}
                    className="z-50 w-52 rounded-xl border border-slate-200 bg-white py-1 shadow-xl focus:outline-none"
                  >
                    {/* A click handler, not a form: the menu unmounts its items as it closes, before a
                        form inside it could be submitted. */}
                    <MenuItem disabled={n.read}>
                      <button
                        type="button"
                        onClick={() => fetcher.submit({ intent: "read", id: n.id }, { method: "post" })}
                        className="block w-full px-4 py-2 text-left text-sm data-[disabled]:opacity-40 data-[focus]:bg-slate-100"
                      >
                        Mark as read
                      </button>
                    </MenuItem>
                    <MenuItem>
                      <Link
                        to={withParams({ delete: n.id })}
                        preventScrollReset
                        className="block px-4 py-2 text-sm text-red-600 data-[focus]:bg-red-50"
                      >
                        Delete notification
                      </Link>
                    </MenuItem>
                  </MenuItems>
                </Menu>
                <noscript>
                  <div className="flex flex-col gap-1 text-xs">
                    {n.read ? null : (
                      <form method="post">
                        <input type="hidden" name="id" value={n.id} />
                        <button type="submit" name="intent" value="read" className="text-primary underline">
                          Mark as read
                        </button>
                      </form>
                    )}
                    <a href={withParams({ delete: n.id })} className="text-red-600 underline">
                      Delete notification
                    </a>
                  </div>
                </noscript>
              </article>
            );
          })
        )}
      </section>

      {deleting ? (
        <noscript>
          <div
            role="dialog"
            aria-labelledby="nojs-delete"
            className="fixed inset-0 z-50 flex items-center justify-center bg-black/30 p-4"
          >
            <div className="card w-full max-w-md p-6">
              <h2 id="nojs-delete" className="text-lg font-semibold text-slate-900">
                Delete Notification
              </h2>
              <p className="mt-2 text-sm text-slate-600">
                Are you sure you want to delete this notification? This action cannot be undone.
              </p>
              <form
                method="post"
                action={`/notifications${withParams({ delete: null })}`}
                className="mt-6 flex justify-end gap-2"
              >
                <input type="hidden" name="id" value={deleting} />
                <a href={withParams({ delete: null })} className="btn-secondary">
                  Cancel
                </a>
                <button type="submit" name="intent" value="delete" className="btn-danger">
                  Delete
                </button>
              </form>
            </div>
          </div>
        </noscript>
      ) : null}
      <Dialog open={Boolean(deleting)} onClose={closeDialog} className="relative z-50">
        <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
        <div className="fixed inset-0 flex items-center justify-center p-4">
          <DialogPanel className="card w-full max-w-md p-6">
            <DialogTitle className="text-lg font-semibold text-slate-900">Delete Notification</DialogTitle>
            <p className="mt-2 text-sm text-slate-600">
              Are you sure you want to delete this notification? This action cannot be undone.
            </p>
            {/* The submission lands on the form's address, without ?delete=, which closes the dialog. */}
            <Form
              method="post"
              action={`/notifications${withParams({ delete: null })}`}
              className="mt-6 flex justify-end gap-2"
            >
              <input type="hidden" name="id" value={deleting ?? ""} />
              <Link to={withParams({ delete: null })} replace preventScrollReset className="btn-secondary">
                Cancel
              </Link>
              <button
                type="submit"
                name="intent"
                value="delete"
                className="btn-danger"
                disabled={navigation.state === "submitting"}
              >
                Delete
              </button>
            </Form>
          </DialogPanel>
        </div>
      </Dialog>
    </div>
  );
}
