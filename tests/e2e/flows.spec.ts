// Flows in Chromium against the production server, as a marketer uses them: she makes a welcome
// series from the starter, shortens its wait on the flow's page, sets it live, adds a customer on
// the customer form and another through /api, and watches them move: both are welcomed by the
// server's own flow clock and the built-in vendor; the one who orders meanwhile reaches the goal
// (the order as the flow's revenue) and gets no offer; the other gets the offer and finishes. The
// page fits a phone.
import type { Page } from "@playwright/test";
import { createCustomerThroughApi, expect, signIn, test, toast, uniqueEmail, widthShot } from "./fixtures";

/** The flow's page, reloaded until the figure shows `value` (the clock ticks every second). */
async function untilFigure(page: Page, testId: string, value: string) {
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.getByTestId(testId).textContent();
      },
      { timeout: 60_000, intervals: [1_000] },
    )
    .toBe(value);
}

test.describe("flows", () => {
  test("a welcome series from the starter welcomes new customers, offers to those who do not order, and counts the order of the one who does", async ({
    page,
  }) => {
    test.setTimeout(180_000);
    await signIn(page, { name: "Flow Builder" });
    await page.goto("/flows");
    await expect(page.getByRole("heading", { level: 2, name: "Flows" })).toBeVisible();
    await expect(page.getByText("No flows yet")).toBeVisible();
    await page.getByRole("button", { name: /Use this flow.*Welcome series/ }).click();
    await expect(page).toHaveURL(/\/flows\/[0-9a-f]{24}$/);
    await expect(toast(page, '"Welcome series" made as a draft: choose its messages, then set it live')).toBeVisible();
    await expect(page.getByTestId("flow-status")).toHaveText("Draft");
    await expect(page.getByTestId("flow-step")).toHaveCount(5);

    // The two days' wait made 15 seconds, so the test sees the offer.
    const wait = page.getByTestId("flow-step").filter({ hasText: "Wait 2 days" });
    await wait.getByText("Change").click();
    await wait.getByLabel("Wait for").fill("0.25");
    await wait.getByLabel("Unit").selectOption("minutes");
    await wait.getByRole("button", { name: "Save step" }).click();
    await expect(toast(page, "Flow saved")).toBeVisible();
    await expect(page.getByTestId("flow-step").filter({ hasText: "Wait 15 seconds" })).toBeVisible();

    await page.getByRole("button", { name: "Set live" }).click();
    await expect(toast(page, '"Welcome series" is live')).toBeVisible();
    await expect(page.getByTestId("flow-status")).toHaveText("Live");
    const flowUrl = page.url();

    // Asha on the customer form, Ravi through /api.
    const asha = uniqueEmail("asha-flow");
    await page.goto("/customers/new");
    await page.getByLabel("First Name").fill("Asha");
    await page.getByLabel("Last Name").fill("Rao");
    await page.getByLabel("Email").fill(asha);
    await page.getByRole("button", { name: "Save Customer" }).click();
    await expect(page).toHaveURL(/\/customers$/);
    const raviId = await createCustomerThroughApi(page, {
      firstName: "Ravi",
      lastName: "Iyer",
      email: uniqueEmail("ravi-flow"),
    });

    await page.goto(flowUrl);
    await untilFigure(page, "welcome-sent", "2");
    // Ravi orders while he waits: he reaches the goal and leaves the flow with the order's revenue.
    const order = await page.request.post("/api/orders", {
      data: { customerId: raviId, status: "Completed", tax: 0, items: [{ name: "Kurta", quantity: 2, price: 1499 }] },
    });
    expect(order.ok(), await order.text()).toBeTruthy();
    await untilFigure(page, "flow-converted", "1");
    await expect(page.getByTestId("flow-revenue")).toHaveText("₹2,998.00");

    // Asha did not order: after the wait she gets the offer and finishes.
    await untilFigure(page, "flow-done", "1");
    // Sent once the delivery job has handed her message to the vendor, a moment after she passed.
    await untilFigure(page, "offer-sent", "1");
    await expect(page.getByTestId("end-exited")).toHaveText("1");
    await expect(page.getByTestId("flow-active")).toHaveText("0");
    await expect(page.getByTestId("flow-people")).toContainText("reached the goal (₹2,998.00)");
    await expect(page.getByTestId("flow-people")).toContainText("finished");

    // Asha's page tells her way through it.
    await page.getByTestId("flow-people").getByRole("link", { name: "Asha Rao" }).click();
    await expect(page.getByTestId("customer-flows")).toContainText("Welcome series · offer: message sent");
    await expect(page.getByTestId("customer-flows")).toContainText("Welcome series · ordered: condition not met");

    // The list shows it; the page fits a phone.
    await page.goto("/flows");
    const row = page.getByTestId("flow-row").filter({ hasText: "Welcome series" });
    await expect(row).toContainText("Live");
    await expect(row).toContainText("₹2,998.00");
    await page.goto(flowUrl);
    await widthShot(page, "flow-page", 390);
  });
});
