// The suppression list's chips: the Reason column of /suppressions and the badge beside a suppressed
// customer's e-mail. Red where the mailbox refused the mail or its owner called it spam, amber for
// an unsubscribe, grey for an address added by hand.
import { MailX } from "lucide-react";
import { Chip } from "~/components/campaign-chips";
import { REASON_CHIPS, SUPPRESSION_BADGES, isSevereReason } from "~/lib/suppression-texts";
import type { ChipColour } from "~/lib/campaigns";
import type { SuppressionReason } from "~/models/suppressions/rows";

function colourOf(reason: SuppressionReason): ChipColour {
  if (isSevereReason(reason)) return "error";
  return reason === "unsubscribed" ? "warning" : "default";
}

export function ReasonChip({ reason }: { reason: SuppressionReason }) {
  return (
    <Chip colour={colourOf(reason)} testId="suppression-reason">
      {REASON_CHIPS[reason]}
    </Chip>
  );
}

/** "Unsubscribed", "Hard bounce", "Complaint" or "Suppressed by hand", with what it means in its tooltip. */
export function SuppressionBadge({ reason }: { reason: SuppressionReason }) {
  return (
    <Chip colour={colourOf(reason)} testId="suppression-badge" title="This address gets no campaign e-mail">
      <MailX className="mr-1 h-3 w-3" aria-hidden />
      {SUPPRESSION_BADGES[reason]}
    </Chip>
  );
}
