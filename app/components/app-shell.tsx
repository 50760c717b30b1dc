import { Dialog, DialogPanel } from "@headlessui/react";
import { Link, useLocation } from "@remix-run/react";
import {
  CircleHelp,
  LayoutDashboard,
  LayoutTemplate,
  ListPlus,
  MailX,
  Megaphone,
  Menu as MenuIcon,
  Settings,
  ShoppingCart,
  Tag,
  Target,
  Users,
  Workflow,
  X,
} from "lucide-react";
import { useEffect, useState } from "react";
import { AuthWatcher } from "~/components/auth-watcher";
import { AvatarMenu } from "~/components/avatar-menu";
import { NotificationMenu, useNotificationStream } from "~/components/notification-menu";
import { BRAND, TAGLINE } from "~/lib/brand";
import type { NotificationDto, PublicUser } from "~/lib/dto";
import { NAV_ITEMS, isNavActive, topBarTitle, welcomeText } from "~/lib/shell";

const NAV_ICONS = {
  Dashboard: LayoutDashboard,
  Customers: Users,
  Fields: ListPlus,
  Tags: Tag,
  Orders: ShoppingCart,
  Segments: Target,
  Templates: LayoutTemplate,
  Campaigns: Megaphone,
  Flows: Workflow,
  Suppressions: MailX,
} as const;

function SideNav({ user, onNavigate }: { user: PublicUser; onNavigate?: () => void }) {
  const { pathname } = useLocation();
  return (
    <div className="flex h-full flex-col">
      <div className="flex items-center gap-2 px-5 py-5">
        <div className="flex h-9 w-9 items-center justify-center rounded-lg bg-primary font-bold text-white">C</div>
        <span className="font-semibold text-slate-800">{BRAND}</span>
      </div>
      <div className="mx-4 mb-4 rounded-lg bg-primary-light/60 px-3 py-3">
        <p className="text-sm font-semibold text-slate-800" data-testid="welcome">
          {welcomeText(user.displayName)}
        </p>
        <p className="text-xs text-slate-600">{TAGLINE}</p>
      </div>
      <nav aria-label="Main" className="flex-1 space-y-1 px-3">
        {NAV_ITEMS.map((item) => {
          const Icon = NAV_ICONS[item.label];
          const active = isNavActive(item.to, pathname);
          return (
            // A plain Link: NavLink would set aria-current by its own rule (/ is not active at /dashboard).
            <Link
              key={item.to}
              to={item.to}
              onClick={onNavigate}
              aria-current={active ? "page" : undefined}
              className={`flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${
                active ? "bg-primary text-white" : "text-slate-700 hover:bg-slate-100"
              }`}
            >
              <Icon className="h-4 w-4" aria-hidden="true" />
              {item.label}
            </Link>
          );
        })}
      </nav>
    </div>
  );
}

export function AppShell({
  user,
  owner,
  notifications,
  unreadCount,
  children,
}: {
  user: PublicUser;
  /** Whether the user is the install's owner (the avatar menu then offers Users). */
  owner: boolean;
  notifications: NotificationDto[];
  unreadCount: number;
  children: React.ReactNode;
}) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const { pathname } = useLocation();
  useNotificationStream();
  // The temporary drawer closes after any navigation.
  useEffect(() => setDrawerOpen(false), [pathname]);

  return (
    <div className="min-h-screen">
      <AuthWatcher userId={user.id} />
      <aside
        className="fixed inset-y-0 left-0 z-20 hidden w-[240px] border-r border-slate-200 bg-white sm:block"
        aria-label="Side navigation"
        data-testid="side-nav"
      >
        <SideNav user={user} />
      </aside>

      <Dialog open={drawerOpen} onClose={() => setDrawerOpen(false)} className="relative z-40 sm:hidden">
        <div className="fixed inset-0 bg-black/30" aria-hidden="true" />
        <DialogPanel className="fixed inset-y-0 left-0 w-[240px] bg-white shadow-xl" data-testid="nav-drawer">
          <button
            type="button"
            className="btn-ghost absolute right-2 top-4"
            aria-label="Close menu"
            onClick={() => setDrawerOpen(false)}
          >
            <X className="h-5 w-5" />
          </button>
          <SideNav user={user} onNavigate={() => setDrawerOpen(false)} />
        </DialogPanel>
      </Dialog>

      <div className="sm:pl-[240px]">
        <header className="sticky top-0 z-10 flex h-16 items-center gap-2 border-b border-slate-200 bg-white/95 px-4 backdrop-blur sm:px-6">
          <button
            type="button"
            className="btn-ghost sm:hidden"
            aria-label="Open menu"
            onClick={() => setDrawerOpen(true)}
          >
            <MenuIcon className="h-5 w-5" />
          </button>
          <h1 className="flex-1 truncate text-lg font-semibold text-slate-800" data-testid="top-bar-title">
            {topBarTitle(pathname)}
          </h1>
          <button type="button" className="btn-ghost" aria-label="Help" title="Help">
            <CircleHelp className="h-5 w-5" />
          </button>
          <button type="button" className="btn-ghost" aria-label="Settings" title="Settings">
            <Settings className="h-5 w-5" />
          </button>
          <NotificationMenu notifications={notifications} unreadCount={unreadCount} />
          <AvatarMenu user={user} owner={owner} />
        </header>
        <main className="mx-auto max-w-7xl p-4 sm:p-6">{children}</main>
      </div>
      <noscript>
        {/* One line (eight entries scroll sideways on a narrow phone), so it stays as tall as the page leaves room for. */}
        <nav className="fixed bottom-0 left-0 right-0 z-30 flex gap-x-4 overflow-x-auto whitespace-nowrap border-t bg-white p-2 text-sm sm:hidden">
          {NAV_ITEMS.map((i) => (
            <Link key={i.to} to={i.to}>
              {i.label}
            </Link>
          ))}
        </nav>
      </noscript>
    </div>
  );
}
