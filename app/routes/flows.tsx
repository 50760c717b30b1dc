// /flows: the user's automations (docs/decisions/0046-flows.md), newest first, each with its status,
// the people in it now, those who reached its goal and their revenue; and the starter flows to
// begin from (each makes a draft to change and set live). Plain links and form posts: all of it
// works without JavaScript; on a phone the rows are cards.
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { Workflow } from "lucide-react";
import { Chip } from "~/components/campaign-chips";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { useDelegatedLinks } from "~/components/fast-rows";
import { CardCell, ColumnHeader, EmptyRow, ListTable } from "~/components/list-table";
import { PageHeader } from "~/components/page-header";
import { PostButton } from "~/components/post-button";
import { TitledCard } from "~/components/titled-card";
import { allowMethods, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { FLOW_STARTERS } from "~/lib/flow-starters";
import { FLOW_STATUS_CHIPS } from "~/lib/flow-screens";
import { formatRupees } from "~/lib/money";
import { formatCount } from "~/lib/numbers";
import { orRespond, refusedWith } from "~/lib/responses";
import { requireUser } from "~/services/auth.server";
import { createFlowFromStarter, listFlows } from "~/services/flows/flows.server";
import { redirectWithFlash } from "~/services/session.server";

export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Flows · ${BRAND}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { flows: await listFlows(user.id) };
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  const form = await request.formData();
  const starter = String(form.get("starter") ?? "");
  const flow = await orRespond(createFlowFromStarter(user.id, starter), refusedWith("The flow could not be made"));
  return redirectWithFlash(request, `/flows/${flow.id}`, {
    kind: "toast",
    type: "success",
    message: `"${flow.name}" made as a draft: choose its messages, then set it live`,
  });
}

export default function Flows() {
  const { flows } = useLoaderData<typeof loader>();
  const onRowsClick = useDelegatedLinks();
  return (
    <div className="mx-auto max-w-6xl space-y-6">
      <PageHeader title="Flows" actions={null}>
        <p className="text-slate-600">
          Messages that send themselves: a welcome when someone becomes a customer, a thank-you after an order, a
          reminder for an abandoned cart. Each person goes through each step once.
        </p>
      </PageHeader>

      <div className="card overflow-hidden">
        <ListTable
          caption="Flows"
          onRowsClick={onRowsClick}
          data-testid="flow-list"
          head={
            <>
              <ColumnHeader>Name</ColumnHeader>
              <ColumnHeader>Status</ColumnHeader>
              <ColumnHeader>In the flow now</ColumnHeader>
              <ColumnHeader>Finished</ColumnHeader>
              <ColumnHeader>Reached the goal</ColumnHeader>
              <ColumnHeader>Revenue</ColumnHeader>
            </>
          }
        >
          {flows.length === 0 ? (
            <EmptyRow colSpan={6} icon={Workflow} title="No flows yet">
              Start from one of the flows below.
            </EmptyRow>
          ) : (
            flows.map((flow) => (
              <tr key={flow.id} className="hover:bg-slate-50" data-testid="flow-row">
                <td className="px-4 py-3 font-medium">
                  <Link to={`/flows/${flow.id}`} className="text-primary hover:underline">
                    {flow.name}
                  </Link>
                </td>
                <CardCell label="Status" className="px-4 py-3">
                  <Chip colour={FLOW_STATUS_CHIPS[flow.status].colour}>{FLOW_STATUS_CHIPS[flow.status].label}</Chip>
                </CardCell>
                <CardCell label="In the flow now" className="px-4 py-3 tabular-nums">
                  {formatCount(flow.people.active)}
                </CardCell>
                <CardCell label="Finished" className="px-4 py-3 tabular-nums">
                  {formatCount(flow.people.done)}
                </CardCell>
                <CardCell label="Reached the goal" className="px-4 py-3 tabular-nums">
                  {formatCount(flow.people.converted)}
                </CardCell>
                <CardCell label="Revenue" className="px-4 py-3 tabular-nums">
                  {formatRupees(flow.revenue)}
                </CardCell>
              </tr>
            ))
          )}
        </ListTable>
      </div>

      <TitledCard headingId="flow-starters" title="Start from a flow">
        <ul className="grid gap-4 sm:grid-cols-2">
          {FLOW_STARTERS.map((starter) => (
            <li
              key={starter.key}
              className="flex flex-col justify-between gap-3 rounded-lg border border-slate-200 p-4"
            >
              <div>
                <p className="font-semibold text-slate-900">{starter.name}</p>
                <p className="text-sm text-slate-600">{starter.description}</p>
              </div>
              <div>
                <PostButton fields={{ starter: starter.key }} className="btn-secondary">
                  Use this flow<span className="sr-only">: {starter.name}</span>
                </PostButton>
              </div>
            </li>
          ))}
        </ul>
      </TitledCard>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/flows" fallback="Failed to load the flows. Please try again." />;
}
