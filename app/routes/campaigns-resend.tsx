// /campaigns/{id}/resend: "Resend to non-openers" of a completed campaign. The detail page's card
// posts here; a valid subject makes the draft (createResendDraft) and opens it in the wizard,
// where it is checked and launched like any other. A refused form (no subject, a campaign that is
// not Completed, nobody left) is answered on this page with the card and its message, so it works
// without JavaScript; GET shows the same card (docs/rules.md#resend-to-non-openers).
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useParams } from "@remix-run/react";
import { ArrowLeft } from "lucide-react";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { ResendNonOpeners } from "~/components/resend-non-openers";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { RESEND_MESSAGES } from "~/lib/campaign-resend";
import { replyRefused } from "~/lib/forms.server";
import { ID_PATTERN } from "~/lib/id";
import { invariantResponse, orRespond } from "~/lib/responses";
import { ResendNonOpenersSchema } from "~/schemas/campaign-resend";
import { requireUser } from "~/services/auth.server";
import { createResendDraft, resendOffer } from "~/services/campaign-resend.server";
import { getCampaign } from "~/services/campaigns/views.server";
import { redirectWithFlash } from "~/services/session.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Resend to non-openers · ${BRAND}` }];

const NOT_FOUND = "Campaign not found";
const FAILED = "Could not create the resend";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = (params.id ?? "").toLowerCase();
  invariantResponse(ID_PATTERN.test(id), null);
  const campaign = await orRespond(getCampaign(user.id, id), NOT_FOUND);
  const offer = await resendOffer(user.id, campaign);
  // Only a completed campaign is resent: the card says so instead of hiding.
  return {
    campaign: { id: campaign.id, name: campaign.name || "Unnamed Campaign" },
    offer:
      offer.kind === "hidden"
        ? { kind: "nobody" as const, reason: RESEND_MESSAGES.notCompleted(campaign.status) }
        : offer,
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const id = (params.id ?? "").toLowerCase();
  const submission = parseWithZod(await request.formData(), { schema: ResendNonOpenersSchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  try {
    const draft = await createResendDraft(user.id, id, submission.value);
    return redirectWithFlash(request, `/campaigns/edit/${draft.id}`, {
      kind: "toast",
      type: "success",
      message: RESEND_MESSAGES.created,
    });
  } catch (error) {
    return replyRefused(submission, error, `${FAILED}: ${error instanceof Error ? error.message : "Unknown error"}`);
  }
}

export default function CampaignResend() {
  const { campaign, offer } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl space-y-4">
      <div className="flex min-w-0 items-center gap-2">
        <Link to={`/campaigns/${campaign.id}`} className="btn-ghost" aria-label="Back to the campaign">
          <ArrowLeft className="h-5 w-5" />
        </Link>
        <div className="min-w-0">
          <h2 className="text-2xl font-bold text-slate-900">Resend to non-openers</h2>
          <p className="truncate text-sm text-slate-600">{campaign.name}</p>
        </div>
      </div>
      <ResendNonOpeners campaignId={campaign.id} campaignName={campaign.name} offer={offer} lastResult={lastResult} />
    </div>
  );
}

export function ErrorBoundary() {
  const params = useParams();
  return (
    <RouteErrorBoundary
      backTo={params.id ? `/campaigns/${params.id}` : "/campaigns"}
      backLabel="Back to the campaign"
      fallback={NOT_FOUND}
    />
  );
}
