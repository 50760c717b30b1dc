// The dashboard's charts (recharts): customers added and campaigns sent per week, and the delivery
// funnel of the recent campaigns. They size themselves to their card (the charts' `responsive`
// mode), so a 390 px phone gets a narrower chart rather than a sideways scroll. Each chart also
// carries its figures as a table for screen readers.
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Tooltip, XAxis, YAxis } from "recharts";
import type { FunnelCampaign, WeeklyPoint } from "~/lib/dashboard";
import { percent } from "~/lib/dashboard";

const PRIMARY = "#2563eb";
const SECONDARY = "#f97316";
const AXIS = { fontSize: 11, fill: "#64748b" };
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "2026-11-16" → "16 Nov": from the date text itself, so server and browser agree. */
export function weekLabel(weekStart: string): string {
  const [, month, day] = weekStart.split("-").map(Number);
  return `${day} ${MONTHS[month - 1]}`;
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
  return (
    <section className="card min-w-0 p-5" aria-labelledby={id} data-testid={testId}>
      <h3 id={id} className="font-semibold text-slate-900">
        {title}
      </h3>
      <p className="mb-3 text-xs text-slate-500">{caption}</p>
      <div className="h-56 w-full min-w-0" aria-hidden="true">
        {children}
      </div>
      <table className="sr-only">{table}</table>
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
  const data = weekly.map((w) => ({ ...w, label: weekLabel(w.weekStart) }));
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
        formatter={(value) => [Number(value).toLocaleString("en-IN"), name]}
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

function WeeklyTable({ weekly, dataKey, name }: { weekly: WeeklyPoint[]; dataKey: keyof WeeklyPoint; name: string }) {
  return (
    <>
      <thead>
        <tr>
          <th scope="col">Week of</th>
          <th scope="col">{name}</th>
        </tr>
      </thead>
      <tbody>
        {weekly.map((w) => (
          <tr key={w.weekStart}>
            <td>{weekLabel(w.weekStart)}</td>
            <td>{w[dataKey]}</td>
          </tr>
        ))}
      </tbody>
    </>
  );
}

export function CustomersPerWeekChart({ weekly }: { weekly: WeeklyPoint[] }) {
  const total = weekly.reduce((sum, w) => sum + w.customersAdded, 0);
  return (
    <ChartCard
      title="Customers added per week"
      caption={`${total.toLocaleString("en-IN")} in the last ${weekly.length} weeks`}
      testId="chart-customers"
      table={<WeeklyTable weekly={weekly} dataKey="customersAdded" name="Customers added" />}
    >
      <WeeklyBars weekly={weekly} dataKey="customersAdded" name="Customers added" colour={PRIMARY} />
    </ChartCard>
  );
}

export function CampaignsPerWeekChart({ weekly }: { weekly: WeeklyPoint[] }) {
  const total = weekly.reduce((sum, w) => sum + w.campaignsSent, 0);
  return (
    <ChartCard
      title="Campaigns sent per week"
      caption={`${total.toLocaleString("en-IN")} in the last ${weekly.length} weeks`}
      testId="chart-campaigns"
      table={<WeeklyTable weekly={weekly} dataKey="campaignsSent" name="Campaigns sent" />}
    >
      <WeeklyBars weekly={weekly} dataKey="campaignsSent" name="Campaigns sent" colour={SECONDARY} />
    </ChartCard>
  );
}

const FUNNEL_COLOURS = ["#93c5fd", "#60a5fa", "#3b82f6", "#1d4ed8"];

/** The four stages summed over the recent campaigns; each bar says its share of the messages sent. */
export function DeliveryFunnelChart({ campaigns }: { campaigns: FunnelCampaign[] }) {
  const sum = (key: "sent" | "delivered" | "opened" | "clicked") => campaigns.reduce((s, c) => s + c[key], 0);
  const sent = sum("sent");
  const stages = [
    { stage: "Sent", value: sent },
    { stage: "Delivered", value: sum("delivered") },
    { stage: "Opened", value: sum("opened") },
    { stage: "Clicked", value: sum("clicked") },
  ].map((s) => ({ ...s, label: `${s.value.toLocaleString("en-IN")} (${percent(s.value, sent).toFixed(1)}%)` }));
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
          <thead>
            <tr>
              <th scope="col">Stage</th>
              <th scope="col">Messages</th>
            </tr>
          </thead>
          <tbody>
            {stages.map((s) => (
              <tr key={s.stage}>
                <td>{s.stage}</td>
                <td>{s.label}</td>
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
        <Tooltip
          cursor={{ fill: "#f1f5f9" }}
          formatter={(value) => [Number(value).toLocaleString("en-IN"), "Messages"]}
        />
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
