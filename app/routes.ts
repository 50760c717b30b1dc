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
  route("api/orders", "routes/api/orders.ts"),
  route("api/orders/:id", "routes/api/orders-id.ts"),
  route("api/customers", "routes/api/customers.ts"),
  route("api/customers/import", "routes/api/customers-import.ts"),
  route("api/customers/export", "routes/api/customers-export.ts"),
  route("api/customers/:id", "routes/api/customers-id.ts"),
  route("api/segments", "routes/api/segments.ts"),
  route("api/segments/preview", "routes/api/segments-preview.ts"),
  route("api/segments/:id", "routes/api/segments-id.ts"),
  route("api/segments/:id/audience-count", "routes/api/segments-id-audience-count.ts"),
  route("api/segments/:id/audience", "routes/api/segments-id-audience.ts"),
  route("api/campaigns", "routes/api/campaigns.ts"),
  route("api/campaigns/:id", "routes/api/campaigns-id.ts"),
  route("api/campaigns/:id/logs", "routes/api/campaigns-id-logs.ts"),
  route("api/campaigns/:id/:control", "routes/api/campaigns-id-control.ts"),
  route("api/webhooks/delivery-receipts", "routes/api/webhooks-delivery-receipts.ts"),
  route("api/ai/message-suggestions", "routes/api/ai-message-suggestions.ts"),
  route("api/*", "routes/api/not-found.ts"),

  // Signed-in resource routes (JSON for the screens' pickers)
  route("customers/export", "routes/customers-export.ts"),
  route("customers/import/progress", "routes/customers-import-progress.ts"),
  route("orders/customer-options", "routes/orders-customer-options.ts"),

  // Signed-in screens inside the layout shell
  layout("routes/app-layout.tsx", [
    index("routes/dashboard.tsx", { id: "dashboard-index" }),
    route("dashboard", "routes/dashboard.tsx", { id: "dashboard" }),
    route("profile", "routes/profile.tsx"),
    route("notifications", "routes/notifications.tsx"),
    route("customers", "routes/customers.tsx"),
    route("customers/new", "routes/customers-form.tsx", { id: "customers-new" }),
    route("customers/edit/:id", "routes/customers-form.tsx", { id: "customers-edit" }),
    route("customers/import", "routes/customers-import.tsx"),
    route("customers/:id", "routes/customers-detail.tsx"),
    route("orders", "routes/orders.tsx"),
    route("orders/new", "routes/orders-form.tsx", { id: "orders-new" }),
    route("orders/edit/:id", "routes/orders-form.tsx", { id: "orders-edit" }),
    route("orders/:id", "routes/orders-detail.tsx"),
    route("segments", "routes/segments.tsx"),
    route("segments/new", "routes/segments-form.tsx", { id: "segments-new" }),
    route("segments/edit/:id", "routes/segments-form.tsx", { id: "segments-edit" }),
    route("segments/:id", "routes/segments-detail.tsx"),
    route("*", "routes/unknown.tsx"),
  ]),
] satisfies RouteConfig;
