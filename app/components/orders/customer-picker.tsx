// The order form's customer (app/routes/orders-form.tsx): fixed when editing, else a searchable
// picker that asks the server for matches as the user types (/orders/customer-options).
import {
  Combobox,
  ComboboxInput,
  ComboboxOption,
  ComboboxOptions,
  Description,
  Field as HeadlessField,
  Label,
} from "@headlessui/react";
import type { FieldMetadata } from "@conform-to/react";
import { useFetcher } from "@remix-run/react";
import { Search } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { ErrorList } from "~/components/forms";
import { customerName } from "~/lib/orders";
import type { loader as optionsLoader } from "~/routes/orders-customer-options";
import type { CustomerOption } from "~/services/orders.server";

/** The order's customer when editing: shown, not changed. */
export function FixedCustomer({ customer }: { customer: CustomerOption | null }) {
  return (
    <div>
      <p className="label">Customer</p>
      <div className="rounded-lg border border-slate-200 bg-slate-50 px-3 py-2 text-sm" data-testid="fixed-customer">
        <span className="font-medium text-slate-900">{customerName(customer)}</span>
        {customer?.email ? <span className="text-slate-500"> · {customer.email}</span> : null}
      </div>
      <p className="mt-1 text-xs text-slate-500">The customer cannot be changed when editing.</p>
    </div>
  );
}

/**
 * A searchable customer picker: asks the server for matches as the user types (scales to any size).
 * The choice is the form's customerId (a hidden input), checked again each time it changes.
 */
export function CustomerPicker({
  meta,
  initial,
  onPicked,
}: {
  meta: FieldMetadata<string>;
  initial: CustomerOption | null;
  onPicked: () => void;
}) {
  const fetcher = useFetcher<typeof optionsLoader>();
  const [customer, setCustomer] = useState<CustomerOption | null>(initial);
  // Validate once the hidden input holds the new choice, i.e. after the render that wrote it.
  const picked = useRef(onPicked);
  picked.current = onPicked;
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    if (changes > 0) picked.current();
  }, [changes]);
  const [query, setQuery] = useState("");
  const timer = useRef<ReturnType<typeof setTimeout>>();
  const load = fetcher.load;
  const search = (q: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => load(`/orders/customer-options?q=${encodeURIComponent(q)}`), 200);
  };
  useEffect(() => () => clearTimeout(timer.current), []);
  const options = fetcher.data?.customers ?? [];
  const loading = fetcher.state === "loading";
  const invalid = Boolean(meta.errors?.length);

  // Headless UI's Field links the label and the error to the combobox input (it sets the input's
  // aria-labelledby and aria-describedby itself).
  return (
    <HeadlessField>
      <input type="hidden" name={meta.name} value={customer?._id ?? ""} />
      <Combobox
        value={customer}
        by="_id"
        onChange={(c: CustomerOption | null) => {
          setCustomer(c);
          setChanges((n) => n + 1);
        }}
        onClose={() => setQuery("")}
        immediate
      >
        <Label className="label">Customer</Label>
        <div className="relative">
          <Search
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-slate-400"
            aria-hidden="true"
          />
          <ComboboxInput
            id="customer-picker"
            className="input pl-9"
            placeholder="Search customers by name or e-mail"
            autoComplete="off"
            aria-invalid={invalid || undefined}
            displayValue={(c: CustomerOption | null) => (c ? `${customerName(c)} (${c.email})` : "")}
            onChange={(e) => {
              setQuery(e.target.value);
              search(e.target.value);
            }}
            onFocus={() => {
              if (!fetcher.data && fetcher.state === "idle")
                load(`/orders/customer-options?q=${encodeURIComponent(query)}`);
            }}
          />
        </div>
        <ComboboxOptions
          anchor={{ to: "bottom start", gap: 4 }}
          className="z-50 max-h-72 w-[var(--input-width)] overflow-auto rounded-xl border border-slate-200 bg-white py-1 shadow-xl empty:invisible focus:outline-none"
        >
          {options.length === 0 ? (
            <div className="px-4 py-2 text-sm text-slate-500">{loading ? "Searching..." : "No customers found"}</div>
          ) : (
            options.map((c) => (
              <ComboboxOption
                key={c._id}
                value={c}
                className="cursor-pointer px-4 py-2 text-sm data-[focus]:bg-primary-light/60 data-[selected]:font-semibold"
              >
                <div className="text-slate-900">{customerName(c)}</div>
                <div className="text-xs text-slate-500">{c.email}</div>
              </ComboboxOption>
            ))
          )}
        </ComboboxOptions>
      </Combobox>
      {invalid ? (
        <Description as="div">
          <ErrorList errors={meta.errors} />
        </Description>
      ) : null}
    </HeadlessField>
  );
}
