// Who a launch to a segment would reach now, for the wizard's Review step: the segment's customers,
// how many of them are suppressed (a launch leaves them out), and the rest. The server renders it
// with the page (and with every step answered without JavaScript); in the browser it is asked
// again from /campaigns/reach whenever the Review step is shown, so it is never stale.
import type { AudienceReach } from "~/lib/campaigns";

export type SegmentReach = AudienceReach & { segmentId: string };

/** The reach of a segment from /campaigns/reach with the page's cookie. */
export async function fetchAudienceReach(segmentId: string, signal?: AbortSignal): Promise<SegmentReach> {
  const response = await fetch(`/campaigns/reach?segmentId=${encodeURIComponent(segmentId)}`, {
    signal,
    headers: { Accept: "application/json" },
  });
  if (!response.ok) throw new Error(`The server answered ${response.status}`);
  return (await response.json()) as SegmentReach;
}
