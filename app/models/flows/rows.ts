// Flows as stored (docs/decisions/0046-flows.md): the flow, its versions' definitions (JSON, read by
// the service with FlowDefinitionSchema), each person's entry, and their passages through steps.

/** A flow as its list and page read it. */
export type FlowRow = {
  id: string;
  userId: string;
  name: string;
  status: string;
  version: number;
  eventCursor: string;
  createdAt: Date;
  updatedAt: Date;
};

/** A flow to write: its name, status and the definition of its (new or current) version as JSON. */
export type FlowWrite = { id: string; userId: string; name: string; status: string; definition: string };

/** An entry the clock claimed: whose it is, where they are, and the claim's token. */
export type ClaimedEntry = {
  id: string;
  userId: string;
  flowId: string;
  version: number;
  customerId: string;
  stepId: string;
  claims: number;
  enteredAt: number;
};

/** A person to enter into a flow: who, the event that entered them (its id is the entry's key), when. */
export type NewEntry = { customerId: string; entryKey: string; at: number };

/** Where a person's passage through a step leaves them: at the next step (due then), or at the end. */
export type StepExit = { stepId: string; dueAt: number } | { end: "done" | "converted"; revenuePaise?: number };

/** A step's passage as recorded: what happened there. */
export type Passage = { outcome: string; details: string };

/** How many people a flow has by state, and the goal's revenue (paise). */
export type FlowCounts = { flowId: string; active: number; done: number; converted: number; revenuePaise: number };

/** A step's figures: passages (entered), people at it now (waiting), by outcome, conversions after it. */
export type StepCounts = {
  stepId: string;
  entered: number;
  waiting: number;
  exited: number;
  converted: number;
  revenuePaise: number;
};

/** A send step's message counters: the rows of its campaign (every version's), by state. */
export type StepDeliveryCounts = {
  stepId: string;
  campaignId: string;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  failed: number;
  suppressed: number;
};

/** A person in a flow, as its people list shows them. */
export type FlowPersonRow = {
  entryId: string;
  customerId: string;
  firstName: string;
  lastName: string;
  email: string;
  version: number;
  stepId: string;
  state: string;
  enteredAt: number;
  dueAt: number;
  endedAt: number | null;
  revenuePaise: number;
};

/** A passage as a person's story shows it. */
export type PassageRow = {
  flowId: string;
  flowName: string;
  stepId: string;
  outcome: string;
  details: string;
  at: number;
};

/** The campaign a send step's messages go out under, as its content is written. */
export type StepCampaign = {
  flowId: string;
  /** The version and the step: "3:welcome". */
  stepKey: string;
  userId: string;
  name: string;
  subject: string;
  message: string;
  design: string;
  templateId: string;
};

/** The key of a send step's campaign for one version: its version and step id. */
export const stepKey = (version: number, stepId: string) => `${version}:${stepId}`;

/** The step id a step campaign's key holds. */
export const stepIdOfKey = (key: string) => key.slice(key.indexOf(":") + 1);

/** Thrown in a step's transaction when the entry is no longer the claimer's (another took it, or it moved): roll back. */
export class StaleClaim extends Error {
  constructor() {
    super("The flow entry was claimed by another runner or has moved on");
  }
}

/**
 * The event cursor that comes before every event kept at or after `ms` (our ids start with their
 * second in 8 hex digits): where a flow set live starts reading, and the bound the clock reads up to.
 */
export const cursorAt = (ms: number) =>
  Math.floor(ms / 1000)
    .toString(16)
    .padStart(8, "0") + "0".repeat(16);
