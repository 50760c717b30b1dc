// "Send a test" (POST /api/templates/{id}/test, the editor's button): a template sent to up to five
// addresses through the channel campaigns use (the built-in vendor or SMTP, with the same headers,
// signing and rendering), its subject marked "[Test]", filled for one of the tenant's customers or
// for a customer with empty fields. Nothing of it is counted: no campaign, no delivery row, and the
// vendor's receipts for it name no message of a campaign, so they are ignored. Its unsubscribe link
// is the preview's example: a test never unsubscribes anyone. A tenant sends at most
// TEST_ADDRESSES_PER_HOUR test messages an hour from one instance (the relay is the owner's).
import { randomUUID } from "node:crypto";
import { getEnv } from "~/env.server";
import { ApiError } from "~/lib/api.server";
import { templateBrandOf } from "~/services/brand.server";
import type { TemplateTestInput } from "~/schemas/template";
import { senderOf } from "~/services/email/sender.server";
import type { ChannelResult, OutgoingMessage } from "~/services/sending/channel.server";
import { createChannel } from "~/services/sending/channels.server";
import { builtInVendor } from "~/services/sending/job.server";
import { customFieldNames, getTemplate, tagProblemsOf } from "~/services/templates.server";
import { customerMergeValues, exampleLinks, sampleMergeValues } from "~/services/templates/merge-values.server";
import { compileTemplate, renderTemplate, TemplateCompileError } from "~/services/templates/render.server";
import { MergeTagError } from "~/lib/merge-tags";

export const TEST_ADDRESSES_PER_HOUR = 30;
const HOUR_MS = 60 * 60_000;

/** Each tenant's test messages of the last hour (their times), on this instance. */
const sentAt = new Map<string, number[]>();

function takeTestAllowance(userId: string, count: number, now: number): void {
  const recent = (sentAt.get(userId) ?? []).filter((t) => t > now - HOUR_MS);
  if (recent.length + count > TEST_ADDRESSES_PER_HOUR) {
    throw new ApiError(
      "rate_limited",
      `At most ${TEST_ADDRESSES_PER_HOUR} test messages an hour: wait a little, or send the test to fewer addresses`,
    );
  }
  sentAt.set(userId, [...recent, ...Array.from({ length: count }, () => now)]);
}

export type TestSendAnswer = { to: string; status: "accepted" | "failed" | "not sent"; details: string };

export async function sendTemplateTest(
  userId: string,
  id: string,
  input: TemplateTestInput,
  now = Date.now(),
): Promise<{ sent: TestSendAnswer[] }> {
  const template = await getTemplate(userId, id);
  const [problem] = tagProblemsOf(template, await customFieldNames(userId));
  if (problem) {
    throw new ApiError("unprocessable", `The test cannot be sent: ${problem.where}: ${problem.message}`);
  }
  const to = [...new Set(input.to)];
  const [compiled, sender, customer] = await Promise.all([
    compileTemplate(template, await templateBrandOf(userId)).catch((error: unknown) => {
      if (error instanceof TemplateCompileError) {
        throw new ApiError("unprocessable", `The test cannot be sent: ${error.where}: ${error.message}`);
      }
      throw error;
    }),
    senderOf(userId),
    input.customerId ? customerMergeValues(userId, input.customerId) : null,
  ]);
  const messages: OutgoingMessage[] = [];
  for (const address of to) {
    const values = customer ?? (await sampleMergeValues(userId, { customer: { email: address }, last_order: null }));
    let message;
    try {
      message = renderTemplate(compiled, values);
    } catch (error) {
      if (error instanceof MergeTagError)
        throw new ApiError("unprocessable", `The test cannot be sent: ${error.message}`);
      throw error;
    }
    messages.push({
      key: `test-${randomUUID()}`,
      to: { name: "", email: address, phone: "" },
      from: sender,
      subject: `[Test] ${message.subject}`,
      text: message.text,
      html: message.html,
      unsubscribeUrl: exampleLinks().unsubscribe_url,
    });
  }
  // Counted once the messages are made: a template refused above costs no allowance.
  takeTestAllowance(userId, messages.length, now);
  let channel;
  try {
    channel = createChannel(getEnv(), builtInVendor() ?? {});
  } catch (error) {
    throw new ApiError("unavailable", `The test cannot be sent now: ${(error as Error).message}`);
  }
  let results: ChannelResult[];
  try {
    results = await channel.send(messages);
  } catch (error) {
    throw new ApiError("unavailable", `The test could not be handed over: ${(error as Error).message}`);
  } finally {
    await channel.close().catch(() => undefined);
  }
  const byKey = new Map(results.map((r) => [r.key, r]));
  return {
    sent: messages.map((m) => {
      const result = byKey.get(m.key);
      if (result?.status === "accepted") return { to: m.to.email, status: "accepted", details: result.details };
      if (result?.status === "failed" || result?.status === "bounced")
        return { to: m.to.email, status: "failed", details: result.details };
      const details = result && "details" in result ? result.details : "The channel did not take it";
      return { to: m.to.email, status: "not sent", details };
    }),
  };
}
