// What the delivery engine hands a batch to: the built-in vendor's HTTP API or SMTP. Each message
// carries its delivery id as the idempotency key, so a batch sent again after a crash is recognised
// as the same messages.
import type { Sender } from "~/services/email/sender.server";

export type OutgoingMessage = {
  /** The delivery id: the idempotency key, and the base of the e-mail's Message-ID. */
  key: string;
  to: { name: string; email: string; phone: string };
  /** Who it comes from (app/services/email/sender.server.ts): the From header and Reply-To. */
  from: Sender;
  subject: string;
  /** The text part (all the built-in vendor takes). */
  text: string;
  /** The HTML part, from the same template (app/lib/email-body.ts). */
  html: string;
  /** The recipient's one-click unsubscribe address (List-Unsubscribe, RFC 8058). */
  unsubscribeUrl: string;
};

export type ChannelResult =
  /** Accepted (or already accepted under this key earlier): the row is sent. */
  | { key: string; status: "accepted"; details: string }
  /** Refused for good: the row fails, or bounces when the address does not exist. */
  | { key: string; status: "failed" | "bounced"; details: string }
  /** Not accepted this time (rate limited, server busy, network): try again later. */
  | { key: string; status: "retry"; details: string; countsAsError: boolean }
  /**
   * Never handed over: the sender said to stop first (the campaign was paused or cancelled), or
   * the relay refused the campaign's sender (`pause`: why, for the campaign's statusDetail), a
   * fault of the campaign and not of the recipient, which pauses the campaign with the message
   * still queued.
   */
  | { key: string; status: "held"; pause?: string };

/** What the engine tells a channel while it sends a batch. */
export type SendControl = {
  /**
   * Asked just before a message (`key`), or a batch that goes as one call (no key), is handed
   * over: false holds it and every message after it back. Once a pause is answered, nothing more
   * is handed over; nor is a message whose claim has run out (another claimer may have it now).
   */
  proceed(key?: string): boolean;
  /**
   * Told each message's answer as soon as the channel has it (SMTP: as each server answers), so
   * the engine records it before the next one goes: after a crash, only messages in flight can
   * go out twice. A channel that answers a batch at once may leave this to the returned results.
   */
  answered?(result: ChannelResult): void;
  /**
   * Settles once the answers passed to `answered` so far are recorded (the engine records those
   * of one event-loop turn together). A channel that sends a text without waiting for a new
   * answer from the server (an envelope that went ahead) waits for this first.
   */
  answersRecorded?(): Promise<void>;
  /**
   * Asked again just before the text of a message goes whose envelope went ahead of it (SMTP
   * PIPELINING: with the text of the message before, one round trip a message): false when what
   * `proceed` said no longer holds (a pause or cancel answered since, the claim run out, the
   * address suppressed). The channel then drops the message unsent. A control without it gets no
   * envelope sent ahead.
   */
  stillGoing?(key: string): boolean;
  /**
   * The message's text has gone and its final answer is awaited (SMTP: up to 10 minutes): its row
   * stays this claim's, its lease renewed, until the returned function is called, so no other
   * claimer sends it again meanwhile.
   */
  holdClaim?(key: string): () => void;
};

export const SEND_FREELY: SendControl = { proceed: () => true };

export interface DeliveryChannel {
  readonly name: "simulated" | "smtp";
  /** Whether the channel reports outcomes later on the receipts endpoint. */
  readonly receipts: boolean;
  /** Messages handed over at the same time at most (SMTP: the pool's connections). */
  readonly concurrency: number;
  send(batch: readonly OutgoingMessage[], control?: SendControl): Promise<ChannelResult[]>;
  close(): Promise<void>;
}

/** Every message of a batch that could not be handed over at all. */
export function retryAll(batch: readonly OutgoingMessage[], details: string, countsAsError = true): ChannelResult[] {
  return batch.map((m) => ({ key: m.key, status: "retry", details, countsAsError }));
}
