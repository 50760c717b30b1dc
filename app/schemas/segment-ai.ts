// POST /api/segments/describe (app/routes/api/segments-describe.ts), which the segment form's 'Use
// AI' dialog posts to: the description to write conditions from.
import { z } from "zod";
import { MESSAGES } from "~/lib/segments-builder";
import { multiLine } from "~/schemas/text";

/** The longest description written from; the local writer reads no more either. */
export const MAX_SEGMENT_DESCRIPTION = 1000;

export const DescribeSegmentInputSchema = z.object({
  description: multiLine(
    z.string({ message: "description is required" }).trim().min(1, MESSAGES.aiEmpty),
    "description",
  )
    .max(MAX_SEGMENT_DESCRIPTION, `description must be at most ${MAX_SEGMENT_DESCRIPTION} characters`)
    .meta({ description: "Who the segment is for, in words (1 to 1000 characters)" }),
});
