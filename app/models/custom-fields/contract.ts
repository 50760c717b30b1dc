// What the custom fields domain offers, whichever engine answers (./sqlite.server.ts,
// ./postgres.server.ts; callers use the door, ./store.server.ts): a tenant's field definitions
// (list, add, change, reorder, delete with their values) and the customers' values of every field,
// built-in and custom. The rules (names, types, what a value may be) are the service's:
// app/services/custom-fields.server.ts and app/lib/custom-fields.ts.
import type { Tx } from "~/models/transaction/store.server";
import type {
  CustomerFieldValueRow,
  CustomFieldChange,
  CustomFieldRow,
  FieldValueRow,
  FieldValueWrites,
  NewCustomField,
} from "./rows";

export type CustomFieldsStore = {
  /** The tenant's fields in their order (retired ones too). */
  listFields(userId: string): Promise<CustomFieldRow[]>;
  /** The tenant's field of this name, or undefined. */
  findField(userId: string, name: string): Promise<CustomFieldRow | undefined>;
  /** Adds a field at the end of the order; throws DuplicateFieldName when the name is taken. */
  createField(userId: string, field: NewCustomField): Promise<CustomFieldRow>;
  /** Changes a field; undefined when the tenant has no such field. */
  updateField(userId: string, name: string, change: CustomFieldChange): Promise<CustomFieldRow | undefined>;
  /** Puts the tenant's fields in this order (names not given keep their place after them). */
  orderFields(userId: string, names: string[]): Promise<void>;
  /** Deletes the field and every customer's value of it; false when there was no such field. */
  deleteField(userId: string, name: string): Promise<boolean>;
  /** How many of the tenant's customers hold a value of the field. */
  countValues(userId: string, name: string): Promise<number>;
  /** One customer's values (the tenant's customer), every field. */
  readCustomerValues(userId: string, customerId: string): Promise<FieldValueRow[]>;
  /** The values of several of the tenant's customers (a page, an export slice). */
  readValuesOfCustomers(userId: string, customerIds: readonly string[]): Promise<CustomerFieldValueRow[]>;
  /** Writes one customer's values: sets some, clears others; the rest stay as they are. */
  writeCustomerValues(userId: string, customerId: string, writes: FieldValueWrites, tx?: Tx): Promise<void>;
};
