// A flow step's form on the flow's page: the fields of its kind (a send's template, a wait's length,
// a condition's test and branches, a tag step's tags), posted as intent "step". A plain form: it
// works without JavaScript.
import { Form } from "@remix-run/react";
import { SelectField, type SelectOption } from "~/components/forms";
import type { FlowStep } from "~/schemas/flow";
import { CONDITION_KINDS, WAIT_UNITS, waitForm } from "~/schemas/flow-form";

const CONDITION_LABELS: Record<(typeof CONDITION_KINDS)[number], string> = {
  ordered: "Placed an order since entering",
  opened: "Opened the message of a step",
  clicked: "Clicked in the message of a step",
  tagged: "Is tagged",
};

export function StepForm({
  step,
  steps,
  templates,
}: {
  step: FlowStep;
  steps: readonly FlowStep[];
  templates: readonly SelectOption[];
}) {
  const prefix = `step-${step.id}`;
  const stepOptions = steps.filter((s) => s.id !== step.id).map((s) => ({ value: s.id, label: s.id }));
  const sendOptions = steps.filter((s) => s.type === "send").map((s) => ({ value: s.id, label: s.id }));
  return (
    <Form method="post" className="mt-3 space-y-3" aria-label={`Change the step ${step.id}`}>
      <input type="hidden" name="intent" value="step" />
      <input type="hidden" name="stepId" value={step.id} />
      <input type="hidden" name="type" value={step.type} />
      {step.type === "send" ? (
        <SelectField
          label="Template"
          selectProps={{ id: `${prefix}-template`, name: "templateId", defaultValue: step.templateId }}
          options={templates}
        />
      ) : null}
      {step.type === "wait" ? (
        <div className="flex flex-wrap items-end gap-3">
          <label className="block text-sm font-medium text-slate-700" htmlFor={`${prefix}-amount`}>
            Wait for
            <input
              id={`${prefix}-amount`}
              className="input mt-1 w-28"
              type="number"
              name="amount"
              step="any"
              required
              defaultValue={waitForm(step.seconds).amount}
            />
          </label>
          <SelectField
            label="Unit"
            selectProps={{ id: `${prefix}-unit`, name: "unit", defaultValue: waitForm(step.seconds).unit }}
            options={Object.keys(WAIT_UNITS).map((u) => ({ value: u, label: u }))}
          />
        </div>
      ) : null}
      {step.type === "condition" ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <SelectField
            label="If the customer"
            selectProps={{ id: `${prefix}-kind`, name: "ifKind", defaultValue: Object.keys(step.if)[0] }}
            options={CONDITION_KINDS.map((k) => ({ value: k, label: CONDITION_LABELS[k] }))}
          />
          <label className="block text-sm font-medium text-slate-700" htmlFor={`${prefix}-value`}>
            Step or tag (for opened, clicked, tagged)
            <input
              id={`${prefix}-value`}
              className="input mt-1"
              name="ifValue"
              list={`${prefix}-sends`}
              defaultValue={"ordered" in step.if ? "" : String(Object.values(step.if)[0])}
            />
            <datalist id={`${prefix}-sends`}>
              {sendOptions.map((o) => (
                <option key={o.value} value={o.value} />
              ))}
            </datalist>
          </label>
          <SelectField
            label="Then go to"
            selectProps={{ id: `${prefix}-then`, name: "then", defaultValue: step.then }}
            options={stepOptions}
          />
          <SelectField
            label="Otherwise go to"
            selectProps={{ id: `${prefix}-else`, name: "else", defaultValue: step.else }}
            options={stepOptions}
          />
        </div>
      ) : null}
      {step.type === "tag" ? (
        <div className="grid gap-3 sm:grid-cols-2">
          <label className="block text-sm font-medium text-slate-700" htmlFor={`${prefix}-add`}>
            Add the tag
            <input id={`${prefix}-add`} className="input mt-1" name="add" defaultValue={step.add ?? ""} />
          </label>
          <label className="block text-sm font-medium text-slate-700" htmlFor={`${prefix}-remove`}>
            Remove the tag
            <input id={`${prefix}-remove`} className="input mt-1" name="remove" defaultValue={step.remove ?? ""} />
          </label>
        </div>
      ) : null}
      <button type="submit" className="btn-primary">
        Save step
      </button>
    </Form>
  );
}
