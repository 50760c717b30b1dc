// The dashboard's charts (recharts): customers added and campaigns sent per week, and the delivery
// funnel of the recent campaigns. They size themselves to their card (the charts' `responsive`
// mode), so a 390 px phone gets a narrower chart rather than a sideways scroll. recharts draws
// only in the browser (it measures its box), so the server's page, and a page without JavaScript,
// shows each chart's figures as a table in its place; once the page is hydrated the chart replaces
// it and the table stays for screen readers only.
import { useSyncExternalStore } from "react";
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Tooltip, XAxis, YAxis } from "recharts";
import type { FunnelCampaign, WeeklyPoint } from "~/lib/dashboard";
import { formatDay } from "~/lib/dates";
import { formatCount, formatRate, rateOf } from "~/lib/numbers";

const PRIMARY = "#2563eb";
const SECONDARY = "#f97316";
const AXIS = { fontSize: 11, fill: "#64748b" };

const subscribeToNothing = () => () => {};
/**
 * False on the server and while React hydrates the server's page, true after: the chart then
 * replaces the table. A client-side navigation to the dashboard draws the chart straight away.
 */
function useHydrated() {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

function ChartCard({
  title,
  caption,
  testId,
  children,
  table,
}: {
  title: string;
  caption: string;
  testId: string;
  children: React.ReactNode;
  table: React.ReactNode;
}) {
  const id = `chart-${testId}`;
  const hydrated = useHydrated();
  return (
    <section className="card min-w-0 p-5" aria-labelledby={id} data-testid={testId}>
      <h3 id={id} className="font-semibold text-slate-900">
        {title}
      </h3>
      <p className="mb-3 text-xs text-slate-500">{caption}</p>
      {hydrated ? (
        <>
          <div className="h-56 w-full min-w-0" aria-hidden="true">
            {children}
          </div>
          <table className="sr-only">{table}</table>
        </>
      ) : (
        <div className="min-h-56">
          <table className="w-full text-left text-xs text-slate-700" data-testid="chart-figures">
            {table}
          </table>
        </div>
      )}
    </section>
  );
}

function WeeklyBars({
  weekly,
  dataKey,
  name,
  colour,
}: {
  weekly: WeeklyPoint[];
  dataKey: "customersAdded" | "campaignsSent";
  name: string;
  colour: string;
}) {
  const data = weekly.map((w) => ({ ...w, label: formatDay(w.weekStart) }));
  return (
    <BarChart
      responsive
      data={data}
      style={{ width: "100%", height: "100%" }}
      margin={{ top: 8, right: 4, bottom: 0, left: -16 }}
    >
      <CartesianGrid vertical={false} stroke="#e2e8f0" />
      <XAxis
        dataKey="label"
        tick={AXIS}
        tickLine={false}
        axisLine={false}
        interval="preserveStartEnd"
        minTickGap={12}
      />
      <YAxis tick={AXIS} tickLine={false} axisLine={false} allowDecimals={false} width={48} />
      <Tooltip
        cursor={{ fill: "#f1f5f9" }}
        formatter={(value) => [formatCount(Number(value)), name]}
        labelFormatter={(label) => `Week of ${String(label)}`}
      />
      <Bar
        dataKey={dataKey}
        name={name}
        fill={colour}
        radius={[4, 4, 0, 0]}
        maxBarSize={28}
        isAnimationActive={false}
      />
    </BarChart>
  );
}

function FiguresHead({ first, second }: { first: string; second: string }) {
  return (
    <thead className="text-slate-500">
      <tr>
        <th scope="col" className="pb-1 font-medium">
          {first}
        </th>
        <th scope="col" className="pb-1 text-right font-medium">
          {second}
        </th>
      </tr>
    </thead>
  );
}

function WeeklyTable({
  weekly,
  dataKey,
  name,
}: {
  weekly: WeeklyPoint[];
  dataKey: "customersAdded" | "campaignsSent";
  name: string;
}) {
  return (
    <>
      <FiguresHead first="Week of" second={name} />
      <tbody>
        {weekly.map((w) => (
          <tr key={w.weekStart} className="border-t border-slate-100">
            <td className="py-px pr-2">{formatDay(w.weekStart)}</td>
            <td className="py-px text-right font-medium tabular-nums text-slate-900">{formatCount(w[dataKey])}</td>
          </tr>
        ))}
      </tbody>
    </>
  );
}

/** The weekly counts drawn as a chart of their own: what each is called, its test id and its colour. */
const WEEKLY_SERIES = {
  customersAdded: { name: "Customers added", testId: "chart-customers", colour: PRIMARY },
  campaignsSent: { name: "Campaigns sent", testId: "chart-campaigns", colour: SECONDARY },
} as const;

/** One weekly count as bars, with its total over the weeks and its figures as a table. */
function PerWeekChart({ weekly, dataKey }: { weekly: WeeklyPoint[]; dataKey: keyof typeof WEEKLY_SERIES }) {
  const { name, testId, colour } = WEEKLY_SERIES[dataKey];
  const total = weekly.reduce((sum, w) => sum + w[dataKey], 0);
  return (
    <ChartCard
      title={`${name} per week`}
      caption={`${formatCount(total)} in the last ${weekly.length} weeks`}
      testId={testId}
      table={<WeeklyTable weekly={weekly} dataKey={dataKey} name={name} />}
    >
      <WeeklyBars weekly={weekly} dataKey={dataKey} name={name} colour={colour} />
    </ChartCard>
  );
}

export function CustomersPerWeekChart({ weekly }: { weekly: WeeklyPoint[] }) {
  return <PerWeekChart weekly={weekly} dataKey="customersAdded" />;
}

export function CampaignsPerWeekChart({ weekly }: { weekly: WeeklyPoint[] }) {
  return <PerWeekChart weekly={weekly} dataKey="campaignsSent" />;
}

const FUNNEL_COLOURS = ["#93c5fd", "#60a5fa", "#3b82f6", "#1d4ed8"];

/**
 * The four stages summed over the recent campaigns; each bar says its share of the messages sent
 * (no share while nothing was sent: docs/rules.md#numbers).
 */
export function DeliveryFunnelChart({ campaigns }: { campaigns: FunnelCampaign[] }) {
  const sum = (key: "sent" | "delivered" | "opened" | "clicked") => campaigns.reduce((s, c) => s + c[key], 0);
  const sent = sum("sent");
  const stages = [
    { stage: "Sent", value: sent },
    { stage: "Delivered", value: sum("delivered") },
    { stage: "Opened", value: sum("opened") },
    { stage: "Clicked", value: sum("clicked") },
  ].map((s) => {
    const share = rateOf(s.value, sent);
    return {
      ...s,
      label: share === null ? formatCount(s.value) : `${formatCount(s.value)} (${formatRate(share)} of sent)`,
    };
  });
  return (
    <ChartCard
      title="Delivery funnel"
      caption={
        campaigns.length === 0
          ? "No campaigns sent yet"
          : `Messages of the last ${campaigns.length} campaign${campaigns.length === 1 ? "" : "s"}`
      }
      testId="chart-funnel"
      table={
        <>
          <FiguresHead first="Stage" second="Messages" />
          <tbody>
            {stages.map((s) => (
              <tr key={s.stage} className="border-t border-slate-100">
                <td className="py-px pr-2">{s.stage}</td>
                <td className="py-px text-right font-medium tabular-nums text-slate-900">{s.label}</td>
              </tr>
            ))}
          </tbody>
        </>
      }
    >
      <BarChart
        responsive
        layout="vertical"
        data={stages}
        style={{ width: "100%", height: "100%" }}
        margin={{ top: 4, right: 8, bottom: 4, left: 0 }}
      >
        <XAxis type="number" hide domain={[0, Math.max(sent, 1)]} />
        <YAxis type="category" dataKey="stage" tick={AXIS} tickLine={false} axisLine={false} width={72} />
        <Tooltip cursor={{ fill: "#f1f5f9" }} formatter={(value) => [formatCount(Number(value)), "Messages"]} />
        <Bar dataKey="value" radius={[0, 4, 4, 0]} isAnimationActive={false} minPointSize={2}>
          {stages.map((s, i) => (
            <Cell key={s.stage} fill={FUNNEL_COLOURS[i]} />
          ))}
          {/* A plain text, not recharts' own label: that one wraps to the bar's width, and a short
              bar (few clicks) would stack its figures into a column. */}
          <LabelList
            dataKey="label"
            content={({ x, y, height, value }) => (
              <text x={Number(x) + 6} y={Number(y) + Number(height) / 2} dy={4} fontSize={11} fill="#0f172a">
                {String(value)}
              </text>
            )}
          />
        </Bar>
      </BarChart>
    </ChartCard>
  );
}

/** The three charts in their grid. */
export default function DashboardCharts({ weekly, funnel }: { weekly: WeeklyPoint[]; funnel: FunnelCampaign[] }) {
  return (
    // The funnel spans the row when two charts fill the one above it.
    <div className="grid grid-cols-1 gap-6 md:grid-cols-2 xl:grid-cols-3">
      <CustomersPerWeekChart weekly={weekly} />
      <CampaignsPerWeekChart weekly={weekly} />
      <div className="min-w-0 md:col-span-2 xl:col-span-1">
        <DeliveryFunnelChart campaigns={funnel} />
      </div>
    </div>
  );
}
