// The local writer of the dashboard's AI insights: plain sentences that state the figures and
// name them. It writes when no LLM is set up, and when the LLM fails or its answer is refused.
import { type Insight, type InsightBlocks, type InsightFigure, type Insights, formatFigure } from "~/lib/insights";
import type { CampaignFigures, InsightFacts } from "~/services/dashboard/insights/facts.server";

/** The insights' four lists, each insight a text and the figures it states. */
export type Lists = Pick<
  Insights,
  "customerTrends" | "segmentRecommendations" | "campaignSuggestions" | "growthPredictions"
>;

const fig = (label: string, value: number, unit: InsightFigure["unit"]): InsightFigure => ({ label, value, unit });
const show = (f: InsightFigure) => formatFigure(f);
const plural = (n: number, one: string, many = `${one}s`) => (n === 1 ? one : many);

function pickBy<T>(items: T[], score: (t: T) => number, best: boolean): T {
  return items.reduce((a, b) => (best ? (score(b) > score(a) ? b : a) : score(b) < score(a) ? b : a));
}

export function localLists(f: InsightFacts): Lists {
  const customerTrends: Insight[] = [];
  {
    const added = fig("New customers this month", f.growth.thisMonth, "count");
    const growth = fig("Customer growth this month", f.growth.growthPercent, "percent");
    const before = fig("Customers before this month", f.growth.beforeThisMonth, "count");
    const last = fig("New customers last month", f.growth.lastMonth, "count");
    customerTrends.push({
      text:
        f.growth.beforeThisMonth === 0
          ? `All ${show(added)} of your customers were added this month; last month brought ${show(last)}.`
          : `New customers this month: ${show(added)}, growing your customer base by ${show(growth)} from ${show(before)}; last month brought ${show(last)}.`,
      figures: [added, growth, before, last],
    });
  }
  {
    const shares = f.inactive.map((w) => fig(`Customers inactive for ${w.days} days or more`, w.percent, "percent"));
    const numbers = f.inactive.map((w) =>
      fig(`Customers inactive for ${w.days} days or more (count)`, w.customers, "count"),
    );
    const [d30, d60, d90] = f.inactive;
    customerTrends.push({
      text: `Inactive customers: ${show(shares[0])} have not been active for ${d30.days} days, ${show(shares[1])} for ${d60.days} days and ${show(shares[2])} for ${d90.days} days (${show(numbers[2])} customers).`,
      figures: [...shares, ...numbers],
    });
  }
  {
    const share = fig("Share of total spend held by the top 10% of customers", f.spend.topPercent, "percent");
    const top = fig("Customers in the top 10% by spend", f.spend.topCustomers, "count");
    const topSpend = fig("Spend of the top 10% of customers", f.spend.topSpend, "rupees");
    const total = fig("Total spend of all customers", f.spend.totalSpend, "rupees");
    customerTrends.push({
      text: `Spend concentration: the top 10% of customers (${show(top)}) hold ${show(share)} of total spend, ${show(topSpend)} of ${show(total)}.`,
      figures: [share, top, topSpend, total],
    });
  }

  const segmentRecommendations: Insight[] = f.unsentSegments.largest.map((s) => {
    const size = fig(`Customers in "${s.name}"`, s.customers, "count");
    return {
      text: `Segment "${s.name}" has ${show(size)} ${plural(s.customers, "customer")} and no campaign has been sent to it yet: launch one to reach them.`,
      figures: [size],
      href: `/campaigns/new?segmentId=${s.id}`,
    };
  });
  if (segmentRecommendations.length === 0) {
    const total = fig("Segments", f.counts.segments, "count");
    const empty = fig("Newest segments not yet sent to, all without customers", f.unsentSegments.counted, "count");
    segmentRecommendations.push(
      f.counts.segments === 0
        ? {
            text: "You have no segments yet: create one to target a group of customers.",
            figures: [],
            href: "/segments/new",
          }
        : f.unsentSegments.total === 0
          ? {
              text: `Every one of your ${show(total)} ${plural(f.counts.segments, "segment")} has had a campaign: create a new segment to reach other customers.`,
              figures: [total],
              href: "/segments/new",
            }
          : {
              text: `Your ${show(empty)} newest ${plural(f.unsentSegments.counted, "segment")} not yet sent to ${f.unsentSegments.counted === 1 ? "has" : "have"} no customers: loosen ${f.unsentSegments.counted === 1 ? "its" : "their"} conditions or create a new segment.`,
              figures: [empty],
              href: "/segments",
            },
    );
  }

  const campaignSuggestions: Insight[] = [];
  const rated = f.campaigns;
  if (rated.length === 0) {
    campaignSuggestions.push({
      text: "No campaign has delivery results yet: launch one to see how it performs.",
      figures: [],
    });
  } else {
    const best = pickBy(rated, (c) => c.deliveryRate, true);
    const worst = pickBy(rated, (c) => c.deliveryRate, false);
    const rate = (c: CampaignFigures) => fig(`Delivery rate of "${c.name}"`, c.deliveryRate, "percent");
    const attempted = (c: CampaignFigures) => fig(`Messages attempted by "${c.name}"`, c.attempted, "count");
    campaignSuggestions.push({
      text: `Best delivery rate: "${best.name}" delivered ${show(rate(best))} of its ${show(attempted(best))} attempted messages.`,
      figures: [rate(best), attempted(best)],
      href: `/campaigns/${best.id}`,
    });
    if (worst.id !== best.id && worst.deliveryRate < best.deliveryRate) {
      campaignSuggestions.push({
        text: `Lowest delivery rate: "${worst.name}" delivered ${show(rate(worst))}: check its failed and bounced addresses before sending to that audience again.`,
        figures: [rate(worst)],
        href: `/campaigns/${worst.id}`,
      });
    }
    const opened = rated.filter((c) => c.delivered > 0);
    if (opened.length > 0) {
      const bestOpen = pickBy(opened, (c) => c.openRate, true);
      const worstOpen = pickBy(opened, (c) => c.openRate, false);
      const open = (c: CampaignFigures) => fig(`Open rate of "${c.name}"`, c.openRate, "percent");
      campaignSuggestions.push({
        text: `Best open rate: "${bestOpen.name}" was opened by ${show(open(bestOpen))} of those who received it: reuse its subject and timing.`,
        figures: [open(bestOpen)],
        href: `/campaigns/${bestOpen.id}`,
      });
      if (worstOpen.id !== bestOpen.id && worstOpen.openRate < bestOpen.openRate) {
        campaignSuggestions.push({
          text: `Lowest open rate: "${worstOpen.name}" was opened by ${show(open(worstOpen))}: try a shorter subject or another time of day.`,
          figures: [open(worstOpen)],
          href: `/campaigns/${worstOpen.id}`,
        });
      }
    }
  }

  const g = f.growth;
  const pace = fig("New customers this month", g.thisMonth, "count");
  const days = fig("Days of this month so far", g.dayOfMonth, "count");
  const projected = fig("New customers expected this month at this month's pace", g.projectedThisMonth, "count");
  const total = fig("Customers expected at the end of this month at this month's pace", g.projectedTotal, "count");
  const growthPredictions: Insight[] = [
    {
      text: `At this month's pace (${show(pace)} new customers in ${show(days)} ${plural(g.dayOfMonth, "day")}), about ${show(projected)} will have joined by the month's end, for ${show(total)} customers in all.`,
      figures: [pace, days, projected, total],
    },
  ];
  return { customerTrends, segmentRecommendations, campaignSuggestions, growthPredictions };
}

/** The card's three blocks, made from the lists. */
export function blocksOf(lists: Lists): InsightBlocks {
  const join = (items: Insight[]) => items.map((i) => i.text).join(" ");
  return {
    campaignPerformance: join(lists.campaignSuggestions),
    segmentInsight: join(lists.segmentRecommendations),
    recentActivity: join([...lists.customerTrends, ...lists.growthPredictions]),
  };
}
