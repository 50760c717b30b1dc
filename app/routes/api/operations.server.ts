// Every /api operation, in the order of the OpenAPI document's paths and tags: each route declares
// its own beside itself (./<route>.openapi.server.ts); GET /api/openapi.json (./openapi-json.ts)
// builds the document from this list.
import type { Operation } from "~/lib/openapi/operation";
import { operations as openapiJson } from "./openapi-json.openapi.server";
import { operations as authGoogle } from "./auth-google.openapi.server";
import { operations as authGoogleCallback } from "./auth-google-callback.openapi.server";
import { operations as authCurrentUser } from "./auth-current-user.openapi.server";
import { operations as authLogout } from "./auth-logout.openapi.server";
import { operations as authProfile } from "./auth-profile.openapi.server";
import { operations as usersId } from "./users-id.openapi.server";
import { operations as notifications } from "./notifications.openapi.server";
import { operations as notificationsReadAll } from "./notifications-read-all.openapi.server";
import { operations as notificationsStream } from "./notifications-stream.openapi.server";
import { operations as notificationsId } from "./notifications-id.openapi.server";
import { operations as notificationsIdRead } from "./notifications-id-read.openapi.server";
import { operations as orders } from "./orders.openapi.server";
import { operations as ordersId } from "./orders-id.openapi.server";
import { operations as customers } from "./customers.openapi.server";
import { operations as customersImport } from "./customers-import.openapi.server";
import { operations as customersExport } from "./customers-export.openapi.server";
import { operations as customersId } from "./customers-id.openapi.server";
import { operations as customersIdStory } from "./customers-id-story.openapi.server";
import { operations as customersIdTags } from "./customers-id-tags.openapi.server";
import { operations as customersIdTagsTag } from "./customers-id-tags-tag.openapi.server";
import { operations as fields } from "./fields.openapi.server";
import { operations as fieldsName } from "./fields-name.openapi.server";
import { operations as tagsList } from "./tags.openapi.server";
import { operations as tagsTag } from "./tags-tag.openapi.server";
import { operations as tagsTagCustomers } from "./tags-tag-customers.openapi.server";
import { operations as suppressions } from "./suppressions.openapi.server";
import { operations as suppressionsImport } from "./suppressions-import.openapi.server";
import { operations as suppressionsExport } from "./suppressions-export.openapi.server";
import { operations as suppressionsEmail } from "./suppressions-email.openapi.server";
import { operations as templates } from "./templates.openapi.server";
import { operations as templatesId } from "./templates-id.openapi.server";
import { operations as templatesIdRender } from "./templates-id-render.openapi.server";
import { operations as templatesIdDuplicate } from "./templates-id-duplicate.openapi.server";
import { operations as templatesIdTest } from "./templates-id-test.openapi.server";
import { operations as templatesIdCheck } from "./templates-id-check.openapi.server";
import { operations as templatesIdDraft } from "./templates-id-draft.openapi.server";
import { operations as images } from "./images.openapi.server";
import { operations as imagesId } from "./images-id.openapi.server";
import { operations as brand } from "./brand.openapi.server";
import { operations as events } from "./events.openapi.server";
import { operations as flows } from "./flows.openapi.server";
import { operations as flowsId } from "./flows-id.openapi.server";
import { operations as flowsIdPeople } from "./flows-id-people.openapi.server";
import { operations as segments } from "./segments.openapi.server";
import { operations as segmentsPreview } from "./segments-preview.openapi.server";
import { operations as segmentsDescribe } from "./segments-describe.openapi.server";
import { operations as segmentsId } from "./segments-id.openapi.server";
import { operations as segmentsIdAudienceCount } from "./segments-id-audience-count.openapi.server";
import { operations as segmentsIdAudience } from "./segments-id-audience.openapi.server";
import { operations as campaigns } from "./campaigns.openapi.server";
import { operations as campaignsId } from "./campaigns-id.openapi.server";
import { operations as campaignsIdLogs } from "./campaigns-id-logs.openapi.server";
import { operations as campaignsIdLinks } from "./campaigns-id-links.openapi.server";
import { operations as campaignsIdResendNonOpeners } from "./campaigns-id-resend-non-openers.openapi.server";
import { operations as campaignsIdControl } from "./campaigns-id-control.openapi.server";
import { operations as webhooksDeliveryReceipts } from "./webhooks-delivery-receipts.openapi.server";
import { operations as webhooksSes } from "./webhooks-ses.openapi.server";
import { operations as webhooksSendgrid } from "./webhooks-sendgrid.openapi.server";
import { operations as aiMessageSuggestions } from "./ai-message-suggestions.openapi.server";
import { operations as aiInsights } from "./ai-insights.openapi.server";
import { operations as statsHistorical } from "./stats-historical.openapi.server";

export const API_OPERATIONS: Operation[] = [
  openapiJson,
  // Sign-in
  authGoogle,
  authGoogleCallback,
  authCurrentUser,
  authLogout,
  authProfile,
  usersId,
  // Notifications
  notifications,
  notificationsReadAll,
  notificationsStream,
  notificationsId,
  notificationsIdRead,
  // Orders
  orders,
  ordersId,
  // Customers
  customers,
  customersImport,
  customersExport,
  customersId,
  customersIdStory,
  // Fields and tags
  fields,
  fieldsName,
  tagsList,
  tagsTag,
  tagsTagCustomers,
  customersIdTags,
  customersIdTagsTag,
  // Suppressions
  suppressions,
  suppressionsImport,
  suppressionsExport,
  suppressionsEmail,
  // Segments
  segments,
  segmentsPreview,
  segmentsDescribe,
  segmentsId,
  segmentsIdAudienceCount,
  segmentsIdAudience,
  // Templates
  templates,
  templatesId,
  templatesIdRender,
  templatesIdDuplicate,
  templatesIdTest,
  templatesIdCheck,
  templatesIdDraft,
  images,
  imagesId,
  brand,
  events,
  flows,
  flowsId,
  flowsIdPeople,
  // Campaigns
  campaigns,
  campaignsId,
  campaignsIdLogs,
  campaignsIdLinks,
  campaignsIdResendNonOpeners,
  campaignsIdControl,
  // Webhooks
  webhooksDeliveryReceipts,
  webhooksSes,
  webhooksSendgrid,
  // AI and dashboard
  aiMessageSuggestions,
  aiInsights,
  statsHistorical,
].flat();
