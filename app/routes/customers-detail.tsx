// /customers/{id}: contact information, additional information (created, last active,
// total spend, segments as chips), recent orders linking to /orders/{id}, and the Back to
// Customers and Edit Customer buttons. When the customer's address is on the suppression list, a
// badge beside it says why and Resubscribe takes it off (after a confirmation, ?resubscribe=1, a
// form post that works without JavaScript); the E-mail history card tells the customer's story
// (app/components/customer-story.tsx): what they were sent, opened and clicked, what bounced, and
// what happened to their address, newest first, a page at a time (?story=CURSOR). The Fields card
// shows the customer's field values (label: value, only fields with one); the Tags card their tags
// as chips, each with a remove button, and a form that adds tags (form posts, without JavaScript too).
// The Marketing consent card shows the consent as it reads (status, date, source, the text agreed
// to) and a form that changes it by hand (a form post, without JavaScript too): the consent
// service's one path, as /api's ("unsubscribed" suppresses the address).
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import {
  ArrowLeft,
  Building2,
  type LucideIcon,
  Mail,
  MailCheck,
  MapPin,
  Pencil,
  Phone,
  ShoppingBag,
} from "lucide-react";
import type { ReactNode } from "react";
import { z } from "zod";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { CustomerStory, STORY_PARAM } from "~/components/customer-story";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { SuppressionBadge } from "~/components/suppression-chips";
import { BRAND } from "~/lib/brand";
import { consentChangedMessage } from "~/lib/consent";
import { displayFieldValue, type FieldDefinition, type FieldValues } from "~/lib/custom-fields";
import { formatDay } from "~/lib/dates";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { formatCount } from "~/lib/numbers";
import { customerDisplayName, isVisitsHighlighted } from "~/lib/customers";
import { DateTime } from "~/components/date-time";
import { invariantResponse, orRespond, refusedWith } from "~/lib/responses";
import { OrderAmount } from "~/components/order-amount";
import { formatRupees, rupeesToPaise } from "~/lib/money";
import { CHIP_CLASSES, shortOrderId, statusColour } from "~/lib/orders";
import { tagKey } from "~/lib/tags";
import { ConsentFormSchema } from "~/schemas/consent";
import { AddTagsFormSchema, tagsFromText, UntagFormSchema } from "~/schemas/tag-form";
import { requireUser } from "~/services/auth.server";
import { fieldDefinitions } from "~/services/custom-fields.server";
import { customerStory } from "~/services/customer-story.server";
import { customerDetail, getCustomer, setCustomerConsent } from "~/services/customers.server";
import { redirectWithFlash } from "~/services/session.server";
import { resubscribe, suppressionOf } from "~/services/suppressions.server";
import { addCustomerTags, customerTagsOf, listTags, removeCustomerTag } from "~/services/tags.server";
import { TitledCard } from "~/components/titled-card";
import { EventsCard, EVENTS_SHOWN } from "~/components/customers/events-card";
import { listEvents } from "~/services/events.server";
import { FlowsCard, PASSAGES_SHOWN } from "~/components/customers/flows-card";
import { customerPassages } from "~/services/flows/flows.server";
import { ConsentCard } from "~/components/customers/consent-card";
import { TagsCard } from "~/components/customers/tags-card";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction<typeof loader> = ({ data: d }) => [
  { title: `${d?.customer ? customerDisplayName(d.customer) : "Customer"} · ${BRAND}` },
];

const LOAD_FAILED = "Failed to load customer data. Please try again.";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const customer = await orRespond(customerDetail(user.id, params.id ?? ""), LOAD_FAILED);
  const search = new URL(request.url).searchParams;
  // ?story=CURSOR: an older page of the E-mail history (a cursor that is not one reads the newest).
  const storyCursor = search.get(STORY_PARAM);
  const [suppression, story, definitions, tags, events, passages] = await Promise.all([
    customer.email ? suppressionOf(user.id, customer.email) : null,
    orRespond(customerStory(user.id, customer.id, { cursor: storyCursor }), LOAD_FAILED),
    fieldDefinitions(user.id),
    listTags(user.id),
    listEvents(user.id, { customerId: customer.id, limit: EVENTS_SHOWN }),
    customerPassages(user.id, customer.id, PASSAGES_SHOWN),
  ]);
  const resubscribing = suppression !== null && search.get("resubscribe") === "1";
  const own = new Set(customer.tags.map(tagKey));
  return {
    customer,
    suppression,
    story,
    events,
    passages,
    olderStory: storyCursor !== null,
    resubscribing,
    fieldValues: shownValues(definitions, customer.fields),
    otherTags: tags.map((t) => t.name).filter((t) => !own.has(tagKey(t))),
  };
}

/** The customer's field values as the Fields card shows them, in the fields' order; a retired field's marked. */
function shownValues(definitions: FieldDefinition[], values: FieldValues) {
  return definitions.flatMap((f) => {
    const value = values[f.name];
    if (value === undefined) return [];
    const text = f.type === "date" ? formatDay(String(value)) : displayFieldValue(f.type, String(value));
    return [{ name: f.name, label: f.label, value: text, retired: f.retired }];
  });
}

/** The Resubscribe confirmation's form. */
const ResubscribeSchema = z.object({ intent: z.literal("resubscribe") });

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const back = `/customers/${encodeURIComponent(params.id ?? "")}`;
  const formData = await request.formData();
  const intent = formData.get("intent");

  if (intent === "tag") {
    const added = parseWithZod(formData, { schema: AddTagsFormSchema });
    if (added.status !== "success") return replyUnfinished(added);
    const tags = tagsFromText(added.value.tags);
    // Another user's customer, or one that is gone, is a 404 like its page.
    await orRespond(customerTagsOf(user.id, params.id ?? ""), LOAD_FAILED);
    try {
      await addCustomerTags(user.id, params.id ?? "", tags);
    } catch (error) {
      return replyRefused(added, error, error instanceof ApiError ? error.message : "Failed to add the tags.");
    }
    return redirectWithFlash(request, back, {
      kind: "toast",
      type: "success",
      message: tags.length === 1 ? `Tag "${tags[0]}" added` : `Tags added: ${tags.join(", ")}`,
    });
  }

  if (intent === "untag") {
    const removed = UntagFormSchema.safeParse(Object.fromEntries(formData));
    invariantResponse(removed.success, "Remove failed: choose a tag to remove", { status: 400 });
    await orRespond(removeCustomerTag(user.id, params.id ?? "", removed.data.tag), refusedWith("Remove failed"));
    return redirectWithFlash(request, back, {
      kind: "toast",
      type: "success",
      message: `Tag "${removed.data.tag}" removed`,
    });
  }

  if (intent === "consent") {
    const chosen = parseWithZod(formData, { schema: ConsentFormSchema });
    if (chosen.status !== "success") return replyUnfinished(chosen);
    // Another user's customer, or one that is gone, is a 404 like its page.
    const changed = await orRespond(
      setCustomerConsent(user.id, params.id ?? "", chosen.value),
      refusedWith("Failed to change consent"),
    );
    const caveat = changed.suppressed && chosen.value.status !== "unsubscribed";
    return redirectWithFlash(request, back, {
      kind: "toast",
      type: caveat ? "warning" : "success",
      message: consentChangedMessage(chosen.value.status, changed.email, changed.suppressed),
    });
  }

  const submission = parseWithZod(formData, { schema: ResubscribeSchema });
  if (submission.status !== "success")
    return redirectWithFlash(request, back, {
      kind: "toast",
      type: "error",
      message: "Failed to resubscribe. Please try again.",
    });
  // Another user's customer, or one that is gone, is a 404 like its page.
  const customer = await orRespond(getCustomer(user.id, params.id ?? ""), LOAD_FAILED);
  // An address taken off the list already (in another tab) is a 404 that says so.
  invariantResponse(
    customer.email && (await resubscribe(user.id, customer.email)),
    `Resubscribe failed: ${customer.email || "the customer has no email"} is not on the suppression list`,
  );
  return redirectWithFlash(request, back, {
    kind: "toast",
    type: "success",
    message: `Resubscribed: ${customer.email} gets campaign e-mail again`,
  });
}

export default function CustomerDetail() {
  const { customer, suppression, story, events, passages, olderStory, resubscribing, fieldValues, otherTags } =
    useLoaderData<typeof loader>();
  const name = customerDisplayName(customer);
  const here = `/customers/${customer.id}`;
  const tagReply = useReplyTo("tag");
  const consentReply = useReplyTo("consent");
  return (
    <div className="mx-auto max-w-5xl space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="flex items-center gap-3">
          <span
            className="flex h-12 w-12 items-center justify-center rounded-full bg-primary-light text-lg font-semibold text-primary"
            aria-hidden
          >
            {name.charAt(0).toUpperCase()}
          </span>
          <div>
            <h2 className="text-2xl font-bold text-slate-900">{name}</h2>
            {customer.company ? <p className="text-slate-600">{customer.company}</p> : null}
          </div>
        </div>
        <div className="flex flex-wrap gap-2">
          <Link to="/customers" className="btn-secondary">
            <ArrowLeft className="h-4 w-4" aria-hidden /> Back to Customers
          </Link>
          <Link to={`/customers/edit/${customer.id}`} className="btn-primary">
            <Pencil className="h-4 w-4" aria-hidden /> Edit Customer
          </Link>
        </div>
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        <TitledCard headingId="contact-heading" title="Contact Information">
          <dl className="space-y-3 text-sm">
            <ContactItem
              icon={Mail}
              label="Email"
              valueClassName="break-all text-slate-900"
              value={customer.email || "No Email"}
            >
              {suppression ? (
                <dd className="mt-1 flex flex-wrap items-center gap-2">
                  <SuppressionBadge reason={suppression.reason} />
                  <Link
                    to="?resubscribe=1"
                    preventScrollReset
                    replace
                    className="inline-flex items-center gap-1 rounded-md border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50"
                  >
                    <MailCheck className="h-3.5 w-3.5" aria-hidden /> Resubscribe
                  </Link>
                </dd>
              ) : null}
            </ContactItem>
            <ContactItem icon={Phone} label="Phone" value={customer.phone || "N/A"} />
            <ContactItem
              icon={MapPin}
              label="Address"
              valueClassName="whitespace-pre-line text-slate-900"
              value={customer.address || "N/A"}
            />
            {customer.company ? <ContactItem icon={Building2} label="Company" value={customer.company} /> : null}
          </dl>
        </TitledCard>

        <TitledCard headingId="additional-heading" title="Additional Information">
          <dl className="grid grid-cols-2 gap-4 text-sm">
            <div>
              <dt className="text-slate-500">Created</dt>
              <dd className="text-slate-900">
                <DateTime value={customer.createdAt} format="long" />
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Last Active</dt>
              <dd className="text-slate-900">
                {customer.lastActive ? <DateTime value={customer.lastActive} format="long" /> : "Never"}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Total Spend</dt>
              <dd className="text-lg font-semibold text-slate-900">{formatRupees(customer.totalSpend)}</dd>
            </div>
            <div>
              <dt className="text-slate-500">Visits</dt>
              <dd>
                <span
                  className={`inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold ${isVisitsHighlighted(customer.visits) ? "bg-primary text-white" : "bg-slate-100 text-slate-700"}`}
                >
                  {formatCount(customer.visits)}
                </span>
              </dd>
            </div>
            <div className="col-span-2">
              <dt className="text-slate-500">Segments</dt>
              <dd className="mt-1 flex flex-wrap gap-2">
                {customer.segments.length === 0 ? (
                  <span className="text-slate-500">Not in any segment</span>
                ) : (
                  customer.segments.map((s) => (
                    <Link
                      key={s.id}
                      to={`/segments/${s.id}`}
                      className="rounded-full bg-secondary-light px-3 py-1 text-xs font-medium text-orange-800 hover:underline"
                    >
                      {s.name}
                    </Link>
                  ))
                )}
              </dd>
            </div>
          </dl>
          {customer.notes ? (
            <div className="mt-4 border-t border-slate-100 pt-4 text-sm">
              <p className="text-slate-500">Notes</p>
              <p className="whitespace-pre-line text-slate-900">{customer.notes}</p>
            </div>
          ) : null}
        </TitledCard>
      </div>

      <div className="grid gap-4 md:grid-cols-2">
        <TitledCard headingId="fields-heading" title="Fields">
          {fieldValues.length === 0 ? (
            <p className="text-sm text-slate-500">No field values yet</p>
          ) : (
            <dl className="grid grid-cols-2 gap-4 text-sm" data-testid="field-values">
              {fieldValues.map((f) => (
                <div key={f.name} className="min-w-0">
                  <dt className="text-slate-500">
                    {f.label}
                    {f.retired ? <span className="text-xs"> (retired)</span> : null}
                  </dt>
                  <dd className="break-words text-slate-900">{f.value}</dd>
                </div>
              ))}
            </dl>
          )}
        </TitledCard>
        {/* Drawn afresh when the tags change, so the Add input is empty again after an add. */}
        <TagsCard
          key={customer.tags.join("\n")}
          id={customer.id}
          tags={customer.tags}
          otherTags={otherTags}
          lastResult={tagReply}
        />
      </div>

      {/* Drawn afresh when the consent changes, so the form starts from what it reads now. */}
      <ConsentCard
        key={JSON.stringify(customer.consent)}
        id={customer.id}
        consent={customer.consent}
        suppressed={suppression !== null}
        lastResult={consentReply}
      />

      <section className="card" aria-labelledby="orders-heading">
        <div className="flex items-center justify-between border-b border-slate-100 px-6 py-4">
          <h3 id="orders-heading" className="font-semibold text-slate-900">
            Recent Orders
          </h3>
          <Link to="/orders/new" className="text-sm font-medium text-primary hover:underline">
            New order
          </Link>
        </div>
        {customer.orders.length === 0 ? (
          <div className="px-6 py-10 text-center text-sm text-slate-500">
            <ShoppingBag className="mx-auto mb-2 h-6 w-6 text-slate-300" aria-hidden />
            No orders yet
          </div>
        ) : (
          <ul className="divide-y divide-slate-100">
            {customer.orders.map((o) => (
              <li key={o.id}>
                <Link
                  to={`/orders/${o.id}`}
                  className="flex flex-wrap items-center justify-between gap-2 px-6 py-3 hover:bg-slate-50"
                >
                  <span>
                    <span className="font-medium text-slate-900">Order #{shortOrderId(o.id)}</span>
                    <DateTime value={o.date} className="block text-xs text-slate-500" />
                  </span>
                  <span className="flex items-center gap-3">
                    <OrderAmount
                      total={o.total}
                      tax={(rupeesToPaise(o.total) - rupeesToPaise(o.amount)) / 100}
                      testId="recent-order-amount"
                    />
                    <span
                      className={`rounded-full px-2.5 py-0.5 text-xs font-medium ring-1 ring-inset ${CHIP_CLASSES[statusColour(o.status)]}`}
                    >
                      {o.status}
                    </span>
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>

      <CustomerStory page={story} here={here} older={olderStory} />

      <FlowsCard passages={passages} />

      <EventsCard events={events} />

      <ConfirmDialog
        open={resubscribing}
        title="Resubscribe"
        message={
          <p>
            Take <strong className="break-all">{customer.email}</strong> off the suppression list? The address will get
            campaign e-mail again. Do this only when the customer has asked for it.
          </p>
        }
        cancelHref={here}
        action={here}
        fields={{ intent: "resubscribe" }}
        confirmLabel="Resubscribe"
        destructive={false}
      />
    </div>
  );
}

/** The action's reply (a form left unfinished) when it answers the form of `intent`: the page has two such forms. */
function useReplyTo(intent: "tag" | "consent") {
  const reply = useActionData<typeof action>();
  return reply?.initialValue?.intent === intent ? reply : undefined;
}

/** One line of the contact card: its icon, what it is and its value, and anything said under it. */
function ContactItem({
  icon: Icon,
  label,
  value,
  valueClassName = "text-slate-900",
  children,
}: {
  icon: LucideIcon;
  label: string;
  value: ReactNode;
  valueClassName?: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex items-start gap-3">
      <Icon className="mt-0.5 h-4 w-4 text-slate-400" aria-hidden />
      <div>
        <dt className="text-slate-500">{label}</dt>
        <dd className={valueClassName}>{value}</dd>
        {children}
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/customers" fallback={LOAD_FAILED} />;
}
