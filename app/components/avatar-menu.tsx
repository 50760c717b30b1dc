import { Menu, MenuButton, MenuItem, MenuItems } from "@headlessui/react";
import { Link, useNavigate } from "@remix-run/react";
import { LogOut, Settings, User as UserIcon, Users, type LucideIcon } from "lucide-react";
import { toast } from "sonner";
import { Avatar } from "~/components/avatar";
import { clearToken } from "~/lib/auth-token";
import type { PublicUser } from "~/lib/dto";

export function AvatarMenu({ user, owner }: { user: PublicUser; owner: boolean }) {
  const navigate = useNavigate();

  // A plain click handler: a form inside the menu would be unmounted by the menu closing before
  // the browser submits it. Sign-out is a POST (a GET could be made by any other site's page).
  async function logout() {
    try {
      const response = await fetch("/api/auth/logout", {
        method: "POST",
        credentials: "same-origin",
        cache: "no-store",
      });
      if (!response.ok) throw new Error(String(response.status));
      clearToken();
      toast.success("Logged out successfully");
      navigate("/login", { replace: true });
    } catch {
      toast.error("Logout failed. Please try again.");
    }
  }

  return (
    <Menu as="div" className="relative">
      <MenuButton
        className="rounded-full focus-visible:outline-2 focus-visible:outline-primary"
        aria-label="Account menu"
      >
        <Avatar name={user.displayName} image={user.profileImage} />
      </MenuButton>
      <MenuItems
        anchor={{ to: "bottom end", gap: 8 }}
        className="z-50 w-60 rounded-xl border border-slate-200 bg-white py-1 shadow-xl focus:outline-none"
      >
        <div className="border-b border-slate-100 px-4 py-3">
          <p className="truncate text-sm font-semibold text-slate-900">{user.displayName || "User"}</p>
          <p className="truncate text-xs text-slate-500">{user.email || "No Email"}</p>
        </div>
        <MenuLink to="/profile" icon={UserIcon} label="My Profile" />
        {owner ? <MenuLink to="/users" icon={Users} label="Users" /> : null}
        <MenuItem>
          <button
            type="button"
            className="flex w-full items-center gap-2 px-4 py-2 text-sm text-slate-700 data-[focus]:bg-slate-100"
          >
            <Settings className="h-4 w-4" /> Account Settings
          </button>
        </MenuItem>
        <MenuItem>
          <button
            type="button"
            onClick={() => void logout()}
            className="flex w-full items-center gap-2 px-4 py-2 text-sm text-red-600 data-[focus]:bg-red-50"
          >
            <LogOut className="h-4 w-4" /> Logout
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}

/** A page the menu leads to: its icon and its name. */
function MenuLink({ to, icon: Icon, label }: { to: string; icon: LucideIcon; label: string }) {
  return (
    <MenuItem>
      <Link to={to} className="flex items-center gap-2 px-4 py-2 text-sm text-slate-700 data-[focus]:bg-slate-100">
        <Icon className="h-4 w-4" />
        {` ${label}`}
      </Link>
    </MenuItem>
  );
}
