// The OpenAPI operations of /api/campaigns/{id}/resend-non-openers (./campaigns-id-resend-non-openers.ts), assembled into GET /api/openapi.json by
// ./openapi-json.ts. Beside the route rather than exported by it: a route module's exports other than
// loader, action and headers reach the browser's bundle, and operations name server-only modules.
import { type Operation } from "~/lib/openapi/operation";

export const operations: Operation[] = [
  {
    path: "/api/campaigns/{id}/resend-non-openers",
    method: "post",
    operationId: "resendToNonOpeners",
    summary: "Makes a draft that resends a completed campaign to the recipients who got it and did not open it",
    description:
      "The audience is the campaign's recipients whose message was accepted (sent or delivered) and who neither opened it nor clicked in it as people (machine opens do not count), taken again when the draft is launched (PUT /api/campaigns/{draft} with status Active; its segmentId is not asked for), minus the suppressed. name defaults to '<name> — non-openers', message to the campaign's. A campaign that is not Completed is a 409; one with nobody left to resend to a 422.",
    tag: "Campaigns",
    body: "ResendNonOpenersInput",
    answers: { 201: { description: "The draft", json: "Campaign", headers: ["Location"] } },
    errors: [400, 404, 409, 413, 422],
  },
];
