// The channel the settings choose: the built-in vendor (DELIVERY_CHANNEL=simulated, the default)
// or SMTP (DELIVERY_CHANNEL=smtp with SMTP_URL and MAIL_FROM).
import type { Env } from "~/env.server";
import type { DeliveryChannel } from "~/services/delivery/channel.server";
import { simulatedChannel } from "~/services/delivery/simulated-channel.server";
import { smtpChannel } from "~/services/delivery/smtp-channel.server";

export function createChannel(env: Env, options: { vendorUrl?: string; vendorKey?: string }): DeliveryChannel {
  if (env.DELIVERY_CHANNEL === "smtp") {
    return smtpChannel({
      url: env.SMTP_URL ?? "",
      from: env.MAIL_FROM ?? "",
      messageIdDomain: new URL(env.publicUrl).hostname,
      maxConnections: env.SMTP_POOL,
    });
  }
  const url = env.SIMULATED_VENDOR_URL ?? options.vendorUrl;
  if (!url) throw new Error("The built-in vendor is not running: start the server, or set SIMULATED_VENDOR_URL");
  return simulatedChannel({ url, apiKey: env.SIMULATED_VENDOR_KEY ?? options.vendorKey ?? "" });
}
