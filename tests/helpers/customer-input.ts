// A customer as /api and the services take one, for tests that need customers rather than their
// details: Asha Iyer, an e-mail no other test customer has, every other detail empty. A test gives
// only what it is about (a first name, tags, field values).
import type { CustomerApiInput } from "~/schemas/customer";

let counter = 0;

export function customerInput(over: Partial<CustomerApiInput> = {}): CustomerApiInput {
  counter += 1;
  const firstName = over.firstName ?? "Asha";
  return {
    firstName,
    lastName: "Iyer",
    email: `${firstName.toLowerCase()}-${counter}-${Date.now()}@example.com`,
    phone: "",
    address: "",
    company: "",
    notes: "",
    ...over,
  };
}
