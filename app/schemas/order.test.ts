import { describe, expect, it } from "vitest";
import { fieldErrors } from "~/lib/api.server";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  ORDER_MESSAGES,
  OrderFormSchema,
  OrderFormUpdateSchema,
  OrderSchema,
  OrderUpdateSchema,
} from "~/schemas/order";

const CUSTOMER = "6741f0a2b3c4d5e6f7a8b9c0";
const valid = { customerId: CUSTOMER, items: [{ name: "Kurta", quantity: 2, price: 499.5 }] };

/** A form's data: each field set in the order given (the order the schema reads item rows in). */
function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.set(name, value);
  return form;
}

function errorsOf(input: unknown, schema = OrderSchema) {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return fieldErrors(result.error);
}

describe("order schema: the form's messages", () => {
  it("accepts a minimal order with the defaults", () => {
    const order = OrderSchema.parse(valid);
    expect(order).toEqual({
      customerId: CUSTOMER,
      status: "Pending",
      notes: "",
      tax: 0,
      items: [{ name: "Kurta", description: "", quantity: 2, price: 499.5 }],
    });
  });

  it("'Please select a customer' when no customer is given", () => {
    expect(errorsOf({ ...valid, customerId: "" }).customerId).toBe("Please select a customer");
    expect(errorsOf({ items: valid.items }).customerId).toBe("Please select a customer");
    expect(errorsOf({ ...valid, customerId: 42 }).customerId).toBe("Please select a customer");
  });

  it("takes the customer from customerId, or from customer as an id or an object", () => {
    expect(OrderSchema.parse({ items: valid.items, customer: CUSTOMER }).customerId).toBe(CUSTOMER);
    expect(OrderSchema.parse({ items: valid.items, customer: { _id: CUSTOMER, firstName: "A" } }).customerId).toBe(
      CUSTOMER,
    );
    expect(OrderSchema.parse({ items: valid.items, customer: { id: CUSTOMER } }).customerId).toBe(CUSTOMER);
  });

  it("'Please fill in all item names' for a blank or missing item name", () => {
    const errors = errorsOf({
      ...valid,
      items: [
        { name: "Kurta", quantity: 1, price: 1 },
        { name: "  ", quantity: 1, price: 1 },
      ],
    });
    expect(errors["items.1.name"]).toBe("Please fill in all item names");
    expect(errorsOf({ ...valid, items: [{ quantity: 1, price: 1 }] })["items.0.name"]).toBe(
      "Please fill in all item names",
    );
  });

  it("needs at least one item", () => {
    expect(errorsOf({ ...valid, items: [] }).items).toBe(ORDER_MESSAGES.items);
    expect(errorsOf({ customerId: CUSTOMER }).items).toBe(ORDER_MESSAGES.items);
  });

  it("quantity has a minimum of 1 and must be a whole number", () => {
    expect(errorsOf({ ...valid, items: [{ name: "A", quantity: 0, price: 1 }] })["items.0.quantity"]).toBe(
      "Quantity must be at least 1",
    );
    expect(errorsOf({ ...valid, items: [{ name: "A", quantity: 1.5, price: 1 }] })["items.0.quantity"]).toBe(
      ORDER_MESSAGES.quantityWhole,
    );
    expect(errorsOf({ ...valid, items: [{ name: "A", quantity: "lots", price: 1 }] })["items.0.quantity"]).toBe(
      ORDER_MESSAGES.quantityNumber,
    );
  });

  it("price has a minimum of 0 with step 0.01", () => {
    expect(errorsOf({ ...valid, items: [{ name: "A", quantity: 1, price: -1 }] })["items.0.price"]).toBe(
      "Price must be 0 or more",
    );
    expect(errorsOf({ ...valid, items: [{ name: "A", quantity: 1, price: 1.005 }] })["items.0.price"]).toBe(
      ORDER_MESSAGES.priceStep,
    );
    expect(errorsOf({ ...valid, items: [{ name: "A", quantity: 1, price: "x" }] })["items.0.price"]).toBe(
      ORDER_MESSAGES.priceNumber,
    );
    expect(errorsOf({ ...valid, items: [{ name: "A", quantity: 1 }] })["items.0.price"]).toBe(
      ORDER_MESSAGES.priceNumber,
    );
    expect(OrderSchema.parse({ ...valid, items: [{ name: "A", quantity: 1, price: 0 }] }).items[0].price).toBe(0);
  });

  it("tax has a minimum of 0", () => {
    expect(errorsOf({ ...valid, tax: -0.01 }).tax).toBe("Tax must be 0 or more");
    expect(errorsOf({ ...valid, tax: "abc" }).tax).toBe(ORDER_MESSAGES.taxNumber);
    expect(errorsOf({ ...valid, tax: 1.234 }).tax).toBe(ORDER_MESSAGES.taxStep);
    expect(OrderSchema.parse({ ...valid, tax: "18.50" }).tax).toBe(18.5);
  });

  it("status is one of the four, in any case, Pending by default", () => {
    expect(OrderSchema.parse({ ...valid, status: "completed" }).status).toBe("Completed");
    expect(OrderSchema.parse({ ...valid, status: "" }).status).toBe("Pending");
    expect(errorsOf({ ...valid, status: "Shipped" }).status).toBe(ORDER_MESSAGES.status);
  });

  it("refuses a total above one crore", () => {
    expect(errorsOf({ ...valid, items: [{ name: "A", quantity: 100, price: 100_001 }] }).items).toBe(
      ORDER_MESSAGES.total,
    );
  });

  it("refuses a body that is not an object", () => {
    expect(OrderSchema.safeParse([]).success).toBe(false);
    expect(OrderSchema.safeParse("order").success).toBe(false);
  });

  it("the update schema may leave the customer out", () => {
    expect(OrderUpdateSchema.parse({ items: valid.items }).customerId).toBeUndefined();
  });
});

describe("order form fields", () => {
  const parse = (form: FormData, schema: typeof OrderFormSchema | typeof OrderFormUpdateSchema = OrderFormSchema) =>
    parseWithZod(form, { schema, disableAutoCoercion: true });
  const errorsOf = (form: FormData) => {
    const submission = parse(form);
    return submission.status === "error" ? submission.error : undefined;
  };

  it("reads item rows in their order and turns a non-numeric quantity into 1", () => {
    const form = formOf({
      customerId: CUSTOMER,
      status: "Processing",
      tax: "10",
      "items[1].name": "Second",
      "items[1].quantity": "abc",
      "items[1].price": "2",
      "items[0].name": "First",
      "items[0].quantity": "3.7",
      "items[0].price": "1.50",
    });
    const submission = parse(form);
    expect(submission.status).toBe("success");
    const order = submission.status === "success" ? submission.value : null;
    expect(order?.items).toEqual([
      { name: "First", description: "", quantity: 3, price: 1.5 },
      { name: "Second", description: "", quantity: 1, price: 2 },
    ]);
    expect(order).toMatchObject({ customerId: CUSTOMER, status: "Processing", tax: 10, notes: "" });
  });

  it("takes the customer from customerId only: the typed box counts once the server has resolved it", () => {
    const form = formOf({ customer: CUSTOMER, "items[0].name": "A", "items[0].price": "1" });
    expect(errorsOf(form)).toEqual({ customerId: [ORDER_MESSAGES.customer] });
    expect(parse(form, OrderFormUpdateSchema).status).toBe("success");
  });

  it("names the fields as the form does (items[1].name) with the form's messages", () => {
    const form = formOf({
      customerId: CUSTOMER,
      tax: "-1",
      "items[0].name": "A",
      "items[0].price": "1",
      "items[1].name": " ",
      "items[1].price": "1.005",
    });
    expect(errorsOf(form)).toEqual({
      tax: [ORDER_MESSAGES.tax],
      "items[1].name": [ORDER_MESSAGES.itemNames],
      "items[1].price": [ORDER_MESSAGES.priceStep],
    });
  });

  it("needs at least one row", () => {
    const form = formOf({ customerId: CUSTOMER });
    expect(errorsOf(form)).toEqual({ items: [ORDER_MESSAGES.items] });
  });
});
