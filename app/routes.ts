// The route table (docs/rules.md#routes-and-screens): one line a route, pages and /api alike.
import { type RouteConfig, type RouteConfigEntry, index, layout, route } from "@remix-run/route-config";

/**
 * A record's screens: its list, its form for a new record and for an edit (one module, two ids),
 * the screens given in `more`, and its detail at /<records>/:id.
 */
function recordScreens(records: string, form: string, more: RouteConfigEntry[] = []): RouteConfigEntry[] {
  return [
    route(records, `routes/${records}.tsx`),
    route(`${records}/new`, `routes/${form}.tsx`, { id: `${records}-new` }),
    route(`${records}/edit/:id`, `routes/${form}.tsx`, { id: `${records}-edit` }),
    ...more,
    route(`${records}/:id`, `routes/${records}-detail.tsx`),
  ];
}

export default [
  // Public
  route("login", "routes/login.tsx"),
  route("auth/callback", "routes/auth-callback.tsx"),
  route("auth/local", "routes/auth-local.ts"),
  route("auth/signout", "routes/auth-signout.ts"),
  route("set-password/:token", "routes/set-password.tsx"),
  route("healthz", "routes/healthz.ts"),
  route("u/:token", "routes/unsubscribe.tsx"),
  route("o/:token", "routes/track-open.ts"),
  route("c/:token", "routes/track-click.ts"),

  // /api (docs/rules.md#the-api-contract)
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
  route("api/customers/:id/story", "routes/api/customers-id-story.ts"),
  route("api/customers/:id/tags", "routes/api/customers-id-tags.ts"),
  route("api/customers/:id/tags/:tag", "routes/api/customers-id-tags-tag.ts"),
  route("api/fields", "routes/api/fields.ts"),
  route("api/fields/:name", "routes/api/fields-name.ts"),
  route("api/tags", "routes/api/tags.ts"),
  route("api/tags/:tag", "routes/api/tags-tag.ts"),
  route("api/tags/:tag/customers", "routes/api/tags-tag-customers.ts"),
  route("api/suppressions", "routes/api/suppressions.ts"),
  route("api/suppressions/import", "routes/api/suppressions-import.ts"),
  route("api/suppressions/export", "routes/api/suppressions-export.ts"),
  route("api/suppressions/:email", "routes/api/suppressions-email.ts"),
  route("api/segments", "routes/api/segments.ts"),
  route("api/segments/preview", "routes/api/segments-preview.ts"),
  route("api/segments/describe", "routes/api/segments-describe.ts"),
  route("api/segments/:id", "routes/api/segments-id.ts"),
  route("api/segments/:id/audience-count", "routes/api/segments-id-audience-count.ts"),
  route("api/segments/:id/audience", "routes/api/segments-id-audience.ts"),
  route("api/campaigns", "routes/api/campaigns.ts"),
  route("api/campaigns/:id", "routes/api/campaigns-id.ts"),
  route("api/campaigns/:id/logs", "routes/api/campaigns-id-logs.ts"),
  route("api/campaigns/:id/links", "routes/api/campaigns-id-links.ts"),
  route("api/campaigns/:id/resend-non-openers", "routes/api/campaigns-id-resend-non-openers.ts"),
  route("api/campaigns/:id/:control", "routes/api/campaigns-id-control.ts"),
  route("api/webhooks/delivery-receipts", "routes/api/webhooks-delivery-receipts.ts"),
  route("api/webhooks/ses", "routes/api/webhooks-ses.ts"),
  route("api/webhooks/sendgrid", "routes/api/webhooks-sendgrid.ts"),
  route("api/ai/message-suggestions", "routes/api/ai-message-suggestions.ts"),
  route("api/ai/insights", "routes/api/ai-insights.ts"),
  route("api/stats/historical", "routes/api/stats-historical.ts"),
  route("api/openapi.json", "routes/api/openapi-json.ts"),
  route("api/*", "routes/api/not-found.ts"),

  // Signed-in resource routes (JSON for the screens' pickers)
  route("customers/export", "routes/customers-export.ts"),
  route("customers/import/progress", "routes/customers-import-progress.ts"),
  route("orders/customer-options", "routes/orders-customer-options.ts"),
  route("campaigns/reach", "routes/campaigns-reach.ts"),
  route("campaigns/:id/export", "routes/campaigns-export.ts"),
  route("suppressions/export", "routes/suppressions-export.ts"),

  // Signed-in screens inside the layout shell
  layout("routes/app-layout.tsx", [
    index("routes/dashboard.tsx", { id: "dashboard-index" }),
    route("dashboard", "routes/dashboard.tsx", { id: "dashboard" }),
    route("profile", "routes/profile.tsx"),
    route("users", "routes/users.tsx"),
    route("notifications", "routes/notifications.tsx"),
    ...recordScreens("customers", "customers-form", [route("customers/import", "routes/customers-import.tsx")]),
    route("fields", "routes/fields.tsx"),
    route("tags", "routes/tags.tsx"),
    ...recordScreens("orders", "orders-form"),
    ...recordScreens("segments", "segments-form"),
    ...recordScreens("campaigns", "campaigns-wizard"),
    route("campaigns/:id/resend", "routes/campaigns-resend.tsx"),
    route("suppressions", "routes/suppressions.tsx"),
    route("suppressions/import", "routes/suppressions-import.tsx"),
    // An edit path without an id is an unknown path too (otherwise it reads as the detail of "edit").
    route("customers/edit", "routes/unknown.tsx", { id: "customers-edit-without-id" }),
    route("orders/edit", "routes/unknown.tsx", { id: "orders-edit-without-id" }),
    route("segments/edit", "routes/unknown.tsx", { id: "segments-edit-without-id" }),
    route("*", "routes/unknown.tsx"),
  ]),
] satisfies RouteConfig;
