// The rule builder as the server renders it (what a browser without JavaScript gets): the field
// picker grouped Customer / Fields / Tags, each row's operators of its field's type, and the value
// input each takes; a row whose field was just changed without JavaScript shows the new field's
// operators.
import { useForm } from "@conform-to/react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SegmentBuilder } from "~/components/segment-builder";
import { BUILT_IN_FIELDS } from "~/lib/custom-fields";
import { ownField } from "~/lib/own-field-fixture";
import { type BuilderRows } from "~/lib/segments-builder";
import { builderFields } from "~/lib/segment-builder-fields";
import type { SegmentFormInput } from "~/schemas/segment";

const catalog = [
  ...BUILT_IN_FIELDS,
  ownField("tier", "choice", { choices: ["Gold", "Silver", "Bronze"] }),
  ownField("vip", "boolean"),
  ownField("old", "text", { retired: true }),
];

function Builder({ rows, used = [] }: { rows: BuilderRows; used?: string[] }) {
  const [form, fields] = useForm<SegmentFormInput>({
    id: "segment-form",
    defaultValue: { name: "", description: "", conditions: rows },
  });
  const conditions = fields.conditions.getFieldset();
  return (
    <SegmentBuilder
      form={form}
      logic={conditions.logic}
      rows={conditions.children}
      fields={builderFields(catalog, used)}
    />
  );
}

const row = (field: string, op: string, value = "") => ({ kind: "condition" as const, field, op, value });
const render = (children: BuilderRows["children"], used?: string[]) =>
  renderToStaticMarkup(<Builder rows={{ logic: "AND", children }} used={used} />);

/** The <select> named `name`, as markup. */
function select(html: string, name: string): string {
  const start = html.indexOf(`name="${name}"`);
  const open = html.lastIndexOf("<select", start);
  return html.slice(open, html.indexOf("</select>", start) + 9);
}
const options = (markup: string) => [...markup.matchAll(/<option[^>]*value="([^"]*)"/g)].map((m) => m[1]);
const selected = (markup: string) => [...markup.matchAll(/<option[^>]*value="([^"]*)"[^>]*selected/g)].map((m) => m[1]);

describe("the segment builder", () => {
  it("groups the field picker: the customer's figures and built-in fields, the tenant's fields, tags", () => {
    const html = render([row("field:city", "$eq", "Pune")]);
    const picker = select(html, "conditions.children[0].field");
    expect([...picker.matchAll(/<optgroup label="([^"]+)"/g)].map((m) => m[1])).toEqual([
      "Customer",
      "Fields",
      "Tags",
      "Orders",
      "Engagement",
      "Consent",
    ]);
    expect(options(picker).slice(0, 11)).toEqual([
      "totalSpend",
      "visits",
      "lastActiveDate",
      "field:city",
      "field:state",
      "field:country",
      "field:birthday",
      "field:time_zone",
      "field:tier",
      "field:vip",
      "tags",
    ]);
    expect(selected(picker)).toEqual(["field:city"]);
    expect(options(select(html, "conditions.children[0].op"))).toEqual([
      "$eq",
      "$ne",
      "$contains",
      "$startsWith",
      "$exists:true",
      "$exists:false",
    ]);
    expect(html).toMatch(/<input[^>]*name="conditions.children\[0\].value"[^>]*value="Pune"/);
  });

  it("draws each row's value as its type takes it", () => {
    const html = render([
      row("field:tier", "$in", "Gold\nBronze"),
      row("field:tier", "$eq", "Silver"),
      row("field:vip", "$eq", "true"),
      row("field:city", "$exists:false"),
      row("field:birthday", "$anniversaryWithinDays", "7"),
      row("field:birthday", "$gt", "2000-01-01"),
      row("tags", "$all", "vip, b2b"),
    ]);
    const several = select(html, "conditions.children[0].value");
    expect(several).toContain("multiple");
    expect(selected(several)).toEqual(["Gold", "Bronze"]);
    expect(selected(select(html, "conditions.children[1].value"))).toEqual(["Silver"]);
    const yesNo = select(html, "conditions.children[2].value");
    expect(options(yesNo)).toEqual(["", "true", "false"]);
    expect(selected(yesNo)).toEqual(["true"]);
    // "Is empty" posts no value.
    expect(html).not.toContain('name="conditions.children[3].value"');
    expect(html).toContain("No value needed");
    expect(html).toMatch(/<input[^>]*name="conditions.children\[4\].value"[^>]*inputMode="numeric"/);
    expect(html).toMatch(/<input(?=[^>]*type="date")[^>]*name="conditions.children\[5\].value"/);
    expect(html).toMatch(/<input[^>]*name="conditions.children\[6\].value"[^>]*value="vip, b2b"/);
    expect(html).toContain("Separate tags with commas");
  });

  it("shows a new field's operators when the row still holds the old field's (no JavaScript)", () => {
    const html = render([row("field:tier", "$gt", "5")]);
    const ops = select(html, "conditions.children[0].op");
    expect(options(ops)).toEqual(["$in", "$eq", "$ne", "$exists:true", "$exists:false"]);
    expect(selected(ops)).toEqual(["$in"]);
  });

  it("lists a retired or deleted field only on the row that uses it", () => {
    const html = render(
      [row("field:old", "$eq", "x"), row("field:gone", "$eq", "y"), row("visits", "$gt", "1")],
      ["old", "gone"],
    );
    expect(options(select(html, "conditions.children[0].field"))).toContain("field:old");
    expect(options(select(html, "conditions.children[0].field"))).not.toContain("field:gone");
    expect(html).toContain("Gone (deleted)");
    expect(options(select(html, "conditions.children[2].field"))).not.toContain("field:old");
  });

  it("draws activity rows: the window in its own input, a rolling date in days, consent and suppressed as lists", () => {
    const html = render([
      row("orderCount", "$gte:within:30", "2"),
      row("spendWithinDays", "$gt", "5000"),
      row("lastOpenDate", "$gte:daysAgo", "90"),
      row("boughtProduct", "$eq", "Saree"),
      row("consent", "$eq", "never_asked"),
      row("suppressed", "$eq", "false"),
    ]);
    // The window's operator shows without it; the window is its own input, optional for orders.
    const ops = select(html, "conditions.children[0].op");
    expect(selected(ops)).toEqual(["$gte"]);
    expect(html).toMatch(/<input[^>]*name="conditions.children\[0\].window"[^>]*value="30"/);
    expect(html).toContain("In the last N days (optional)");
    expect(html).toMatch(/<input[^>]*name="conditions.children\[1\].window"/);
    expect(html).not.toContain('name="conditions.children[2].window"');
    expect(selected(select(html, "conditions.children[2].op"))).toEqual(["$gte:daysAgo"]);
    expect(html).toMatch(/<input[^>]*name="conditions.children\[2\].value"[^>]*inputMode="numeric"[^>]*value="90"/);
    expect(html).toMatch(/<input[^>]*name="conditions.children\[3\].value"[^>]*value="Saree"/);
    const consent = select(html, "conditions.children[4].value");
    expect(options(consent)).toEqual(["", "subscribed", "unsubscribed", "never_asked"]);
    expect(consent).toContain(">Never asked<");
    expect(selected(consent)).toEqual(["never_asked"]);
    expect(selected(select(html, "conditions.children[5].value"))).toEqual(["false"]);
  });
});
