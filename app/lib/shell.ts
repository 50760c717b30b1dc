// Pure rules of the layout shell (docs/rules.md#layout-shell).
export const NAV_ITEMS = [
  { label: "Dashboard", to: "/" },
  { label: "Customers", to: "/customers" },
  { label: "Fields", to: "/fields" },
  { label: "Tags", to: "/tags" },
  { label: "Orders", to: "/orders" },
  { label: "Segments", to: "/segments" },
  { label: "Templates", to: "/templates" },
  { label: "Campaigns", to: "/campaigns" },
  { label: "Flows", to: "/flows" },
  { label: "Suppressions", to: "/suppressions" },
] as const;

/** 'Dashboard' at /, otherwise the first path segment, capitalised. */
export function topBarTitle(pathname: string): string {
  const first = pathname.split("/").filter(Boolean)[0];
  if (!first) return "Dashboard";
  return first.charAt(0).toUpperCase() + first.slice(1);
}

/** Whether a navigation entry is the current route. */
export function isNavActive(to: string, pathname: string): boolean {
  if (to === "/") return pathname === "/" || pathname === "/dashboard" || pathname.startsWith("/dashboard/");
  return pathname === to || pathname.startsWith(`${to}/`);
}

/** The avatar's letter when there is no picture: first letter of the display name, or 'U'. */
export function avatarLetter(displayName: string | null | undefined): string {
  const letter = displayName?.trim().charAt(0);
  return letter ? letter.toUpperCase() : "U";
}

export function welcomeText(name: string | null | undefined): string {
  return `Welcome, ${name?.trim() || "User"}!`;
}
