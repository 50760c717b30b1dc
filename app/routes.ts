// The route table of spec §2: one line a route, pages and /api alike.
import { type RouteConfig, index, layout, route } from "@remix-run/route-config";

export default [
  // Public
  route("login", "routes/login.tsx"),
  route("auth/callback", "routes/auth-callback.tsx"),
  route("auth/local", "routes/auth-local.ts"),
  route("auth/signout", "routes/auth-signout.ts"),
  route("healthz", "routes/healthz.ts"),

  // /api (spec §7)
  route("api/auth/google", "routes/api/auth-google.ts"),
  route("api/auth/google/callback", "routes/api/auth-google-callback.ts"),
  route("api/auth/current_user", "routes/api/auth-current-user.ts"),
  route("api/auth/logout", "routes/api/auth-logout.ts"),
  route("api/auth/profile", "routes/api/auth-profile.ts"),
  route("api/users/:id", "routes/api/users-id.ts"),
  route("api/notifications", "routes/api/notifications.ts"),
  route("api/notifications/read-all", "routes/api/notifications-read-all.ts"),
  route("api/notifications/stream", "routes/api/notifications-stream.ts"),
  route("api/notifications/:id", "routes/api/notifications-id.ts"),
  route("api/notifications/:id/read", "routes/api/notifications-id-read.ts"),
  route("api/*", "routes/api/not-found.ts"),

  // Signed-in screens inside the layout shell
  layout("routes/app-layout.tsx", [
    index("routes/dashboard.tsx", { id: "dashboard-index" }),
    route("dashboard", "routes/dashboard.tsx", { id: "dashboard" }),
    route("profile", "routes/profile.tsx"),
    route("notifications", "routes/notifications.tsx"),
    route("*", "routes/unknown.tsx"),
  ]),
] satisfies RouteConfig;
