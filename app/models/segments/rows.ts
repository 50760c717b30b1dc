// The segments as stored: one Segment row per saved audience of a tenant, its condition tree as
// JSON text (docs/rules.md#segment-conditions). Every query takes the tenant. The audience of a
// segment's tree is ./audience/.
import type { Prisma } from "~/generated/prisma/client";

/** One Segment row (dates as Date). */
export type SegmentRow = Prisma.SegmentGetPayload<object>;
/** What the audience of a stored segment needs: its id and its condition text. */
export type SegmentConditionsRow = Pick<SegmentRow, "id" | "conditions">;
/** What a segment write stores. */
export type SegmentFields = { name: string; description: string; logicType: string; conditions: string };
/** A segment's id and name. */
export type SegmentName = { id: string; name: string };
