// @engines sqlite postgres
// The import screen with fields and tags, without JavaScript: the loader gives the fields a column
// can be named for (the preview's), and the form's 'Create fields for unknown columns' checkbox,
// sent before the file, makes text fields of the columns the import does not know; unticked, the
// result lists them.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase } from "../helpers/db";
import { ORIGIN, args, cookieFor, makeRequest } from "../helpers/requests";

// eslint-disable-next-line react-hooks/rules-of-hooks -- a test helper named use*, not a React hook
useTestDatabase();

import { action, loader } from "~/routes/customers-import";
import { createField, updateField } from "~/services/custom-fields.server";

const BOUNDARY = "----crm-fields-boundary";

/** The screen's multipart form: its fields in order, then the file. */
function upload(cookie: string, fields: [string, string][], csv: string) {
  const parts = fields.map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const file = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="c.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${BOUNDARY}--\r\n`;
  return new Request(new URL("/customers/import", ORIGIN), {
    method: "POST",
    headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
    body: [...parts, file].join(""),
  });
}

type Outcome = {
  ok: boolean;
  createFields: boolean;
  result: {
    created: number;
    updated: number;
    fields: string[];
    tags: boolean;
    unknownColumns: string[];
    createdFields: string[];
  };
};
const outcomeOf = async (request: Request) => ((await action(args(request))) as unknown as { data: Outcome }).data;

describe("the import screen with fields and tags", () => {
  it("offers the live fields to the preview, and makes fields of unknown columns only when the box is ticked", async () => {
    const user = await createTestUser("ScreenFields");
    const cookie = await cookieFor(user.id);
    await createField(user.id, { name: "tier", label: "Loyalty tier", type: "text" });
    await createField(user.id, { name: "gone", label: "Gone", type: "text" });
    await updateField(user.id, "gone", { retired: true });

    const page = (await loader(args(makeRequest("/customers/import", { auth: { cookie } })))) as {
      fields: { name: string; label: string }[];
    };
    expect(page.fields.map((f) => f.name)).toEqual(["city", "state", "country", "birthday", "time_zone", "tier"]);

    const csv = "firstName,lastName,email,Loyalty Tier,Shoe size,tags\nAnu,Roy,anu@example.com,Gold,6,new; vip\n";
    const plain = await outcomeOf(upload(cookie, [], csv));
    expect(plain).toMatchObject({
      ok: true,
      createFields: false,
      result: { created: 1, fields: ["tier"], tags: true, unknownColumns: ["Shoe size"], createdFields: [] },
    });

    const ticked = await outcomeOf(upload(cookie, [["createFields", "on"]], csv));
    expect(ticked).toMatchObject({
      ok: true,
      createFields: true,
      result: { updated: 1, fields: ["tier", "shoe_size"], unknownColumns: [], createdFields: ["shoe_size"] },
    });
  });
});
