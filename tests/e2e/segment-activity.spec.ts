// A segment on a customer's fields and what they bought, built in the rule builder with JavaScript
// on: "birthday this week in Pune, bought a saree". The builder's live count is the count
// POST /api/segments/preview gives for the same conditions, and a campaign launched to the saved
// segment takes exactly that many customers. The data is made through the app's own API
// (customers with a city and a birthday, orders with their items). The "opened something in 90
// days" part needs a campaign history and is covered by the unit tests of the builder, Use AI and
// the activity conditions (app/lib/segments-builder.test.ts, app/lib/segments-ai.test.ts,
// app/models/segments/audience/activity.server.test.ts), not here.
import type { Page } from "@playwright/test";
import { expect, signIn, test, uniqueEmail, POSTGRES_TOO } from "./fixtures";

const DAY = 86_400_000;
const IST = 5.5 * 3_600_000;

/** A birthday `inDays` days from today (IST), in 1990. */
function birthday(inDays: number): string {
  const monthDay = new Date(Date.now() + IST + inDays * DAY).toISOString().slice(5, 10);
  // 29 February has no anniversary in most years: the day before it keeps the test's meaning.
  return `1990-${monthDay === "02-29" ? "02-28" : monthDay}`;
}

async function customerWith(page: Page, name: string, city: string, birthdayIn: number, products: string[]) {
  const res = await page.request.post("/api/customers", {
    data: {
      firstName: name,
      lastName: "Kulkarni",
      email: uniqueEmail(name.toLowerCase()),
      fields: { city, birthday: birthday(birthdayIn) },
    },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
  const customerId = ((await res.json()) as { _id: string })._id;
  for (const product of products) {
    const order = await page.request.post("/api/orders", {
      data: { customerId, status: "completed", items: [{ name: product, quantity: 1, price: 2500 }] },
    });
    expect(order.ok(), await order.text()).toBeTruthy();
  }
}

test(
  "a segment of birthdays this week in Pune who bought a saree: builder, preview and campaign agree",
  POSTGRES_TOO,
  async ({ page }) => {
    await signIn(page, { name: "Saree Shop" });
    // Two match: a Pune birthday today who bought a Saree, and one in three days who bought "saree"
    // among other things. The others miss one condition each.
    await customerWith(page, "Asha", "Pune", 0, ["Saree"]);
    await customerWith(page, "Bina", "Pune", 3, ["Kurta", "saree"]);
    await customerWith(page, "Chitra", "Pune", 0, ["Kurta"]);
    await customerWith(page, "Deepa", "Mumbai", 1, ["Saree"]);
    await customerWith(page, "Esha", "Pune", 60, ["Saree"]);

    await page.goto("/segments/new");
    await page.getByLabel("Segment Name").fill("Pune saree birthdays");
    await page.getByLabel("Field of condition 1").selectOption("field:birthday");
    await page.getByLabel("Operator of condition 1").selectOption("$anniversaryWithinDays");
    await page.getByLabel("Value of condition 1").fill("7");
    await page.getByRole("button", { name: "Add condition", exact: true }).click();
    await page.getByLabel("Field of condition 2").selectOption("field:city");
    await page.getByLabel("Operator of condition 2").selectOption("$eq");
    await page.getByLabel("Value of condition 2").fill("Pune");
    await page.getByRole("button", { name: "Add condition", exact: true }).click();
    // The picker lists what a customer did under Orders.
    await expect(page.getByLabel("Field of condition 3").locator('optgroup[label="Orders"] option')).toHaveText([
      "Number of orders",
      "First order",
      "Last order",
      "Average order value (₹)",
      "Spend (₹)",
      "Bought product",
    ]);
    await page.getByLabel("Field of condition 3").selectOption("boughtProduct");
    await expect(page.getByLabel("Operator of condition 3")).toHaveValue("$eq");
    await page.getByLabel("Value of condition 3").fill("Saree");

    const conditions = {
      $and: [
        { "field:birthday": { $anniversaryWithinDays: 7 } },
        { "field:city": { $eq: "Pune" } },
        { boughtProduct: { $eq: "Saree" } },
      ],
    };
    const preview = await page.request.post("/api/segments/preview", { data: { conditions } });
    expect(preview.ok(), await preview.text()).toBeTruthy();
    const { count } = (await preview.json()) as { count: number };
    expect(count).toBe(2);
    await expect(page.getByTestId("preview-count")).toHaveText(String(count));

    await page.getByRole("button", { name: "Create Segment" }).click();
    await expect(page).toHaveURL(/\/segments$/);
    const list = (await (await page.request.get("/api/segments")).json()) as
      | { _id?: string; id?: string; name: string; conditions: unknown }[]
      | { segments: { _id?: string; id?: string; name: string; conditions: unknown }[] };
    const segments = Array.isArray(list) ? list : list.segments;
    const saved = segments.find((s) => s.name === "Pune saree birthdays");
    expect(saved?.conditions).toEqual(conditions);
    const segmentId = saved?._id ?? saved?.id ?? "";

    const launched = await page.request.post("/api/campaigns", {
      data: { name: "Birthday sarees", subject: "A gift for you", segmentId, message: "Hi {NAME}, happy birthday!" },
    });
    expect(launched.status(), await launched.text()).toBe(201);
    expect(((await launched.json()) as { audienceSize: number }).audienceSize).toBe(count);

    // A spend takes its "In the last N days" beside the amount; the row fits a phone's width too.
    await page.goto("/segments/new");
    await page.getByLabel("Field of condition 1").selectOption("spendWithinDays");
    await page.getByLabel("Operator of condition 1").selectOption("$gte");
    await page.getByLabel("Value of condition 1").fill("2000");
    await page.getByLabel("Days of condition 1").fill("30");
    await expect(page.getByTestId("preview-count")).toHaveText("5");
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await expect(page.getByLabel("Days of condition 1")).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    }
  },
);
