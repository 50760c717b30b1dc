// A marketer's day through the browser, on each engine: the "chromium" project runs it against
// the SQLite server and the "postgres" project against the same product on PostgreSQL
// (playwright.config.ts). Customers imported and searched, an order placed, a segment made and
// previewed, a campaign launched through the wizard and followed live to Completed, its delivery
// log, the dashboard's figures and the notification it raised.
import type { APIRequestContext, Page } from "@playwright/test";
import { expect, signIn, test, uniqueEmail } from "./fixtures";

const toast = (page: Page, text: string) => page.getByTestId("snackbar").filter({ hasText: text });

/** `n` customers in one CSV import: customer i is "Reader{i} Shah" and spent ₹100 × i. */
async function importCustomers(request: APIRequestContext, n: number) {
  const rows = ["firstName,lastName,email,phone,totalSpend,visits"];
  for (let i = 1; i <= n; i++)
    rows.push(`Reader${i},Shah,${uniqueEmail(`reader${i}`)},98765${String(i).padStart(5, "0")},${100 * i},${i % 5}`);
  const res = await request.post("/api/customers/import", {
    headers: { "Content-Type": "text/csv" },
    data: rows.join("\n"),
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

test("a marketer's day: customers, an order, a segment, a campaign sent live, the log and the dashboard", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, { name: "Day Marketer" });
  await importCustomers(page.request, 30);

  // Customers: the list, a search, one customer's page.
  await page.goto("/customers");
  await expect(page.getByRole("heading", { name: "Customers" }).first()).toBeVisible();
  await page.getByLabel("Search customers").fill("reader17");
  await expect(page.getByRole("link", { name: /Reader17 Shah/ }).first()).toBeVisible();
  await page
    .getByRole("link", { name: /Reader17 Shah/ })
    .first()
    .click();
  await expect(page).toHaveURL(/\/customers\/[0-9a-f]{24}$/);
  await expect(page.getByText("Reader17 Shah").first()).toBeVisible();
  const customerId = page.url().split("/").pop() ?? "";

  // An order for that customer, through /api as the shop's integration would place it.
  const order = await page.request.post("/api/orders", {
    data: { customerId, items: [{ name: "Diwali hamper", quantity: 2, price: 1250 }] },
  });
  expect(order.status(), await order.text()).toBe(201);
  await page.goto("/orders");
  const orderRow = page.getByRole("row").filter({ hasText: "Reader17 Shah" });
  await expect(orderRow).toContainText("₹2,500.00");
  await expect(orderRow).toContainText("Pending");

  // A segment: customers who spent over ₹1,000.
  const created = await page.request.post("/api/segments", {
    data: { name: "Big spenders", conditions: { totalSpend: { $gt: 1000 } }, logicType: "AND" },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const segmentId = ((await created.json()) as { id: string }).id;
  // Readers 11 to 30 spent over ₹1,000 (Reader17's order added ₹2,500 to what they had).
  await page.goto("/segments");
  await expect(page.getByText("Big spenders").first()).toBeVisible();

  // The wizard: the audience, the message, the review, launch.
  await page.goto(`/campaigns/new?segmentId=${segmentId}`);
  await page.getByLabel("Campaign Name").fill("Festive thanks");
  await expect(page.getByLabel("Target Segment")).toHaveValue(segmentId);
  await expect(page.getByTestId("audience-count")).toHaveText("20");
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Message Content").fill("Hi {NAME}, thank you for shopping with us this year.");
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page.getByTestId("review-audience")).toHaveText("20 customers");
  await page.getByRole("button", { name: "Launch Campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(toast(page, "Campaign launched successfully!")).toBeVisible();
  const row = page.getByTestId("campaign-row").filter({ hasText: "Festive thanks" });
  await expect(row.getByTestId("campaign-audience")).toHaveText("20");
  // The list follows the campaign to Completed on its own.
  await expect(row.getByTestId("campaign-status")).toHaveText("Completed", { timeout: 60_000 });

  // The detail and its delivery log: every recipient has a final row.
  await row.getByRole("link").first().click();
  await expect(page.getByRole("heading", { name: "Campaign Details" })).toBeVisible();
  await expect(page.getByTestId("figure-pending")).toHaveText("0");
  await page.getByRole("tab", { name: "Delivery Logs" }).click();
  await expect(page.getByTestId("log-row")).toHaveCount(20);
  await expect(page.getByTestId("log-summary")).toHaveText("1–20 of 20");
  await expect(page.getByTestId("log-row").first().getByTestId("log-customer")).toHaveText(/^Reader\d+ Shah$/);

  // The dashboard counts what was made today.
  await page.goto("/");
  const customers = page.getByRole("region", { name: "Total Customers", exact: true });
  await expect(customers.getByTestId("stat-count")).toHaveText("30");
  await expect(page.getByTestId("recent-campaign").filter({ hasText: "Festive thanks" })).toBeVisible();

  // The campaign's completion reached the notifications.
  await page.goto("/notifications");
  await expect(page.getByText(/Festive thanks/).first()).toBeVisible();
});
