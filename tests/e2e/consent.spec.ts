// Marketing consent on the customer page as a user clicks it: a customer never asked, subscribed by
// hand with the text they agreed to (the source the customer page, dated now), then unsubscribed,
// which puts the address on the suppression list (the badge beside the e-mail); the page at 1366
// and at 390 wide. And the same form with JavaScript off: a plain post, the message after it.
import {
  E2E_PASSWORD,
  expect,
  LOCAL_SIGN_IN_BUTTON,
  POSTGRES_TOO,
  signIn,
  test,
  uniqueEmail,
  createCustomerThroughApi,
  widthShot,
} from "./fixtures";

test.describe("consent on the customer page", () => {
  test(
    "subscribe a customer by hand with the text they agreed to, then unsubscribe them",
    POSTGRES_TOO,
    async ({ page }) => {
      await signIn(page, { name: "Consent Keeper" });
      const email = uniqueEmail("tara");
      const id = await createCustomerThroughApi(page, { firstName: "Tara", lastName: "Singh", email });

      await page.goto(`/customers/${id}`);
      const card = page.getByRole("region", { name: "Marketing consent" });
      const status = card.getByTestId("consent-status");
      await expect(status).toHaveText("Never asked");
      await expect(card).toContainText("No consent recorded. Campaigns still go to this address");
      await expect(card.getByLabel("Change consent to")).toHaveValue("never_asked");

      await card.getByLabel("Change consent to").selectOption({ label: "Subscribed" });
      await card.getByLabel("Text agreed to (optional)").fill("Yes, send me Diwali offers by e-mail.");
      await card.getByRole("button", { name: "Save consent" }).click();
      await expect(page.getByText("Consent changed to Subscribed", { exact: true })).toBeVisible();
      await expect(status).toHaveText("Subscribed");
      const shown = card.getByTestId("consent");
      await expect(shown).toContainText("since");
      await expect(shown).toContainText("Customer page");
      await expect(shown).toContainText("Yes, send me Diwali offers by e-mail.");
      await expect(card.getByLabel("Change consent to")).toHaveValue("subscribed");
      await expect(page.getByTestId("suppression-badge")).toHaveCount(0);
      // /api reads what the page recorded.
      const read = await page.request.get(`/api/customers/${id}`);
      expect(((await read.json()) as { consent: unknown }).consent).toMatchObject({
        status: "subscribed",
        source: "Customer page",
        text: "Yes, send me Diwali offers by e-mail.",
      });
      await page.reload();
      await widthShot(page, "customer-consent", 1366);
      await widthShot(page, "customer-consent", 390);

      // Unsubscribed: the address goes on the suppression list, and the page says so.
      await card.getByLabel("Change consent to").selectOption({ label: "Unsubscribed" });
      await card.getByLabel("Text agreed to (optional)").fill("");
      await card.getByRole("button", { name: "Save consent" }).click();
      await expect(
        page.getByText(
          `Consent changed to Unsubscribed: ${email} is on the suppression list and gets no campaign e-mail`,
        ),
      ).toBeVisible();
      await expect(status).toHaveText("Unsubscribed");
      await expect(card).toContainText("This address gets no campaign e-mail.");
      await expect(page.getByTestId("suppression-badge")).toBeVisible();
      await page.reload();
      await widthShot(page, "customer-consent-unsubscribed", 390);
    },
  );
});

test.describe("consent without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("change it through the form post, the message shown after it", async ({ page }) => {
    await page.goto("/login");
    await page.getByLabel("Name", { exact: true }).fill("No Script Consent");
    await page.getByLabel("E-mail", { exact: true }).fill(uniqueEmail("nojs-consent"));
    await page.getByLabel("Password", { exact: true }).fill(E2E_PASSWORD);
    await page.getByRole("button", { name: LOCAL_SIGN_IN_BUTTON }).click();
    await page.getByRole("link", { name: "Continue to the dashboard" }).click();
    await expect(page.getByText("Welcome back!")).toBeVisible();
    const id = await createCustomerThroughApi(page, { firstName: "Om", lastName: "Das", email: uniqueEmail("om") });

    await page.goto(`/customers/${id}`);
    const card = page.getByRole("region", { name: "Marketing consent" });
    await card.getByLabel("Change consent to").selectOption({ label: "Subscribed" });
    await card.getByLabel("Text agreed to (optional)").fill("Said yes at the counter");
    await card.getByRole("button", { name: "Save consent" }).click();
    await expect(page).toHaveURL(new RegExp(`/customers/${id}$`));
    await expect(page.getByRole("status")).toHaveText("Consent changed to Subscribed");
    await expect(card.getByTestId("consent-status")).toHaveText("Subscribed");
    await expect(card.getByTestId("consent")).toContainText("Said yes at the counter");

    // A status the form does not offer (a tampered post) is put under the select by the server.
    await card.getByLabel("Change consent to").evaluate((select) => {
      const option = document.createElement("option");
      option.value = "maybe";
      option.textContent = "Maybe";
      select.appendChild(option);
    });
    await card.getByLabel("Change consent to").selectOption("maybe");
    await card.getByRole("button", { name: "Save consent" }).click();
    await expect(card.getByLabel("Change consent to")).toHaveAccessibleDescription("Choose a consent status");
    await expect(card.getByTestId("consent-status")).toHaveText("Subscribed");
  });
});
