// /flows/:id: one flow (docs/decisions/0046-flows.md): its status and the buttons that change it,
// why it cannot go live yet, what starts it, its steps in order with their figures (entered,
// waiting, sent, opened, clicked, converted, revenue, exited) and a link to each send step's
// delivery log, and the latest people in it and where they are. Every step is changed, added or
// removed by a plain form, so the whole flow is built on a phone and without JavaScript; a live flow
// that a change would break is refused, saying why, and stays as it was.
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { Chip } from "~/components/campaign-chips";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { StepForm } from "~/components/flows/step-form";
import { SelectField } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { TitledCard } from "~/components/titled-card";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { FLOW_STATUS_CHIPS, stepInWords, triggerInWords } from "~/lib/flow-screens";
import { isId } from "~/lib/id";
import { formatRupees } from "~/lib/money";
import { formatCount } from "~/lib/numbers";
import { invariantResponse, orRespond } from "~/lib/responses";
import {
  FlowAddStepFormSchema,
  FlowRemoveStepFormSchema,
  FlowSettingsFormSchema,
  FlowStatusFormSchema,
  FlowStepFormSchema,
  STEP_TYPES,
  stepFromForm,
} from "~/schemas/flow-form";
import { requireUser } from "~/services/auth.server";
import { editFlow, type FlowEdit } from "~/services/flows/flow-edits.server";
import { deleteFlow, flowPeople, getFlow, setFlowStatus } from "~/services/flows/flows.server";
import { redirectWithFlash } from "~/services/session.server";
import { listTemplates } from "~/services/templates.server";

export const headers = keepAllowHeader;

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `${data?.flow.name ?? "Flow"} · ${BRAND}` }];

const LOAD_FAILED = "Failed to load the flow. Please try again.";
const PEOPLE_SHOWN = 20;

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = params.id ?? "";
  invariantResponse(isId(id), LOAD_FAILED);
  const flow = await orRespond(getFlow(user.id, id), LOAD_FAILED);
  const [templates, people] = await Promise.all([
    listTemplates(user.id),
    flowPeople(user.id, id, { limit: PEOPLE_SHOWN }),
  ]);
  return { flow, people, templates: templates.map((t) => ({ value: t.id, label: t.name })) };
}

const STATUS_SAID = { live: "is live", paused: "is paused", draft: "is a draft again" } as const;

/** The edit a form asks for, or the first thing wrong with it. */
function editOf(form: FormData): FlowEdit | string {
  switch (form.get("intent")) {
    case "settings": {
      const s = parseWithZod(form, { schema: FlowSettingsFormSchema });
      if (s.status !== "success") return Object.values(s.error ?? {})[0]?.[0] ?? "Check the settings";
      const { name, event, goal, reentry, reentryDays } = s.value;
      if (reentry === "days" && reentryDays === undefined) return "Enter after how many days a person may enter again";
      return {
        kind: "settings",
        name,
        event,
        goal,
        reentry: reentry === "days" ? { afterDays: reentryDays ?? 1 } : "never",
      };
    }
    case "step": {
      const s = parseWithZod(form, { schema: FlowStepFormSchema });
      if (s.status !== "success") return Object.values(s.error ?? {})[0]?.[0] ?? "Check the step";
      return { kind: "step", step: stepFromForm(s.value) };
    }
    case "add": {
      const s = parseWithZod(form, { schema: FlowAddStepFormSchema });
      if (s.status !== "success") return Object.values(s.error ?? {})[0]?.[0] ?? "Choose what the step does";
      return { kind: "add", type: s.value.type, after: s.value.after };
    }
    case "remove": {
      const s = parseWithZod(form, { schema: FlowRemoveStepFormSchema });
      if (s.status !== "success") return "Choose the step to remove";
      return { kind: "remove", stepId: s.value.stepId };
    }
    default:
      return "Unknown action";
  }
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const id = params.id ?? "";
  invariantResponse(isId(id), "Flow not found");
  const here = `/flows/${id}`;
  const form = await request.formData();
  const intent = form.get("intent");
  const refused = (message: string) => redirectWithFlash(request, here, { kind: "toast", type: "error", message });
  try {
    if (intent === "delete") {
      await deleteFlow(user.id, id);
      return redirectWithFlash(request, "/flows", { kind: "toast", type: "success", message: "Flow deleted" });
    }
    if (intent === "status") {
      const s = parseWithZod(form, { schema: FlowStatusFormSchema });
      if (s.status !== "success") return refused("Choose a status");
      const flow = await setFlowStatus(user.id, id, s.value.status);
      return redirectWithFlash(request, here, {
        kind: "toast",
        type: "success",
        message: `"${flow.name}" ${STATUS_SAID[s.value.status]}`,
      });
    }
    const edit = editOf(form);
    if (typeof edit === "string") return refused(edit);
    await editFlow(user.id, id, edit);
    return redirectWithFlash(request, here, { kind: "toast", type: "success", message: "Flow saved" });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // Gone, or another user's: a 404 like any record.
    invariantResponse(error.status !== 404, "Flow not found");
    return refused(error.message);
  }
}

const figure = (label: string, value: string, testId?: string) => (
  <div>
    <dt className="text-xs text-slate-500">{label}</dt>
    <dd className="font-semibold tabular-nums text-slate-900" data-testid={testId}>
      {value}
    </dd>
  </div>
);

export default function FlowDetail() {
  const { flow, people, templates } = useLoaderData<typeof loader>();
  const chip = FLOW_STATUS_CHIPS[flow.status];
  const templateName = (tid: string) => templates.find((t) => t.value === tid)?.label ?? "a deleted template";
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm">
            <Link to="/flows" className="text-primary hover:underline">
              Flows
            </Link>
          </p>
          <h2 className="break-words text-2xl font-bold text-slate-900">{flow.name}</h2>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-slate-600">
            <Chip colour={chip.colour} testId="flow-status">
              {chip.label}
            </Chip>
            <span>Version {flow.version}</span>
            <span>{triggerInWords(flow.trigger)}</span>
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          {flow.status === "live" ? (
            <PostButton fields={{ intent: "status", status: "paused" }} className="btn-secondary">
              Pause
            </PostButton>
          ) : (
            <PostButton fields={{ intent: "status", status: "live" }} className="btn-primary">
              {flow.status === "paused" ? "Resume" : "Set live"}
            </PostButton>
          )}
          {flow.status === "paused" ? (
            <PostButton fields={{ intent: "status", status: "draft" }} className="btn-secondary">
              Back to draft
            </PostButton>
          ) : null}
        </div>
      </div>

      {flow.problems.length > 0 ? (
        <div role="alert" className="rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
          <p className="font-semibold">This flow cannot go live yet:</p>
          <ul className="mt-1 list-disc pl-5">
            {flow.problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      ) : null}

      <dl className="card grid grid-cols-2 gap-4 p-4 sm:grid-cols-4">
        {figure("In the flow now", formatCount(flow.people.active), "flow-active")}
        {figure("Finished", formatCount(flow.people.done), "flow-done")}
        {figure("Reached the goal", formatCount(flow.people.converted), "flow-converted")}
        {figure("Revenue", formatRupees(flow.revenue), "flow-revenue")}
      </dl>

      <TitledCard headingId="flow-steps" title="Steps">
        <ol className="space-y-3" data-testid="flow-steps">
          {flow.steps.map((step, index) => (
            <li key={step.id} className="rounded-lg border border-slate-200 p-4" data-testid="flow-step">
              <p className="font-medium text-slate-900">
                <span className="mr-2 text-slate-500">{index + 1}.</span>
                {stepInWords(step, templateName)} <span className="text-xs text-slate-500">({step.id})</span>
              </p>
              <dl className="mt-2 grid grid-cols-3 gap-2 text-sm sm:grid-cols-7">
                {figure("Entered", formatCount(step.entered), `${step.id}-entered`)}
                {figure(step.type === "wait" ? "Waiting" : "Here now", formatCount(step.waiting), `${step.id}-waiting`)}
                {step.type === "send" ? (
                  <>
                    {figure("Sent", formatCount(step.sent), `${step.id}-sent`)}
                    {figure("Opened", formatCount(step.opened))}
                    {figure("Clicked", formatCount(step.clicked))}
                  </>
                ) : null}
                {figure("Converted", formatCount(step.converted))}
                {figure("Revenue", formatRupees(step.revenue))}
                {step.type === "exit" ? figure("Left here", formatCount(step.exited), `${step.id}-exited`) : null}
              </dl>
              <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
                {step.campaignId ? (
                  <Link to={`/campaigns/${step.campaignId}`} className="text-primary hover:underline">
                    Delivery log<span className="sr-only"> of {step.id}</span>
                  </Link>
                ) : null}
                <PostButton fields={{ intent: "remove", stepId: step.id }} className="text-red-700 hover:underline">
                  Remove<span className="sr-only"> the step {step.id}</span>
                </PostButton>
              </div>
              {step.type !== "exit" ? (
                <details className="mt-2">
                  <summary className="cursor-pointer text-sm text-primary">
                    Change<span className="sr-only"> the step {step.id}</span>
                  </summary>
                  <StepForm step={step} steps={flow.steps} templates={templates} />
                </details>
              ) : null}
            </li>
          ))}
        </ol>
        <Form method="post" className="mt-4 flex flex-wrap items-end gap-3" aria-label="Add a step">
          <input type="hidden" name="intent" value="add" />
          <SelectField
            label="Add a step"
            selectProps={{ id: "add-type", name: "type", defaultValue: "send" }}
            options={STEP_TYPES.map((t) => ({ value: t, label: ADD_LABELS[t] }))}
          />
          <SelectField
            label="After"
            selectProps={{ id: "add-after", name: "after", defaultValue: flow.steps.at(-1)?.id ?? "" }}
            options={[{ value: "", label: "(at the start)" }, ...flow.steps.map((s) => ({ value: s.id, label: s.id }))]}
          />
          <button type="submit" className="btn-secondary">
            Add
          </button>
        </Form>
      </TitledCard>

      <SettingsCard flow={flow} />

      <TitledCard headingId="flow-people" title="People in this flow">
        {people.length === 0 ? (
          <p className="text-sm text-slate-600">
            Nobody yet. People enter when the trigger happens while the flow is live.
          </p>
        ) : (
          <ul className="divide-y divide-slate-100 text-sm" data-testid="flow-people">
            {people.map((p) => (
              <li key={`${p.customerId}-${p.enteredAt}`} className="flex flex-wrap justify-between gap-2 py-2">
                <Link to={`/customers/${p.customerId}`} className="text-primary hover:underline">
                  {p.name || p.email}
                </Link>
                <span className="text-slate-600">
                  {p.state === "active"
                    ? `at ${p.stepId}`
                    : p.state === "converted"
                      ? `reached the goal (${formatRupees(p.revenue)})`
                      : "finished"}
                </span>
              </li>
            ))}
          </ul>
        )}
      </TitledCard>

      <details className="card p-4">
        <summary className="cursor-pointer text-sm font-medium text-red-700">Delete this flow</summary>
        <p className="mt-2 text-sm text-slate-600">
          Everyone in it leaves at once and its messages&apos; delivery logs are deleted with it.
        </p>
        <PostButton fields={{ intent: "delete" }} className="btn-secondary mt-2 text-red-700">
          Delete flow
        </PostButton>
      </details>
    </div>
  );
}

const ADD_LABELS: Record<(typeof STEP_TYPES)[number], string> = {
  send: "Send a message",
  wait: "Wait",
  condition: "If / otherwise",
  tag: "Tag the customer",
  exit: "Leave the flow",
};

function SettingsCard({ flow }: { flow: ReturnType<typeof useLoaderData<typeof loader>>["flow"] }) {
  const reentryDays = typeof flow.reentry === "object" ? flow.reentry.afterDays : undefined;
  return (
    <TitledCard headingId="flow-settings" title="Trigger and settings">
      <Form method="post" className="grid gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="settings" />
        <label className="block text-sm font-medium text-slate-700" htmlFor="flow-name">
          Name
          <input id="flow-name" className="input mt-1" name="name" required defaultValue={flow.name} />
        </label>
        <label className="block text-sm font-medium text-slate-700" htmlFor="flow-event">
          Starts on the event
          <input
            id="flow-event"
            className="input mt-1"
            name="event"
            required
            list="flow-events"
            defaultValue={flow.trigger.event}
          />
          <datalist id="flow-events">
            <option value="customer_created" />
            <option value="order_placed" />
            <option value="cart_abandoned" />
          </datalist>
        </label>
        <SelectField
          label="Goal"
          selectProps={{
            id: "flow-goal",
            name: "goal",
            defaultValue: flow.goal && "ordered" in flow.goal ? "ordered" : "none",
          }}
          options={[
            { value: "none", label: "None" },
            { value: "ordered", label: "Places an order (ends the flow for them)" },
          ]}
        />
        <div className="flex flex-wrap items-end gap-3">
          <SelectField
            label="May enter again"
            selectProps={{ id: "flow-reentry", name: "reentry", defaultValue: reentryDays ? "days" : "never" }}
            options={[
              { value: "never", label: "Never" },
              { value: "days", label: "After some days" },
            ]}
          />
          <label className="block text-sm font-medium text-slate-700" htmlFor="flow-reentry-days">
            Days
            <input
              id="flow-reentry-days"
              className="input mt-1 w-24"
              type="number"
              min={1}
              name="reentryDays"
              defaultValue={reentryDays}
            />
          </label>
        </div>
        <div className="sm:col-span-2">
          <button type="submit" className="btn-primary">
            Save settings
          </button>
        </div>
      </Form>
    </TitledCard>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/flows" fallback={LOAD_FAILED} />;
}
