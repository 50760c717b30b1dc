// What the merge values model offers (MergeValuesStore): a batch of recipients' values for the
// delivery engine, on its own connection.
import type { AnyConnection } from "~/db/connection.server";
import type { RecipientFieldRow, RecipientOrderRow, RecipientRow } from "./rows";

export type MergeValuesStore = {
  /** The tenant's customers among `ids` (others' are never read). */
  recipients(connection: AnyConnection, userId: string, ids: readonly string[]): Promise<RecipientRow[]>;
  /** Their field values with the tenant's fields' types. */
  recipientFields(connection: AnyConnection, userId: string, ids: readonly string[]): Promise<RecipientFieldRow[]>;
  /** Each one's newest order (none for a customer without orders). */
  lastOrders(connection: AnyConnection, userId: string, ids: readonly string[]): Promise<RecipientOrderRow[]>;
};
