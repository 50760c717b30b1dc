// The built-in vendor in a process of its own for the delivery bench, as a real provider would be:
// its memory and CPU are not the server's. Settings come from the environment.
import { startSimulatedVendor } from "../../app/services/sending/simulated-vendor.server.ts";

const vendor = await startSimulatedVendor({
  port: Number(process.env.VENDOR_PORT ?? 0),
  apiKey: process.env.VENDOR_KEY ?? "",
  receiptsUrl: process.env.VENDOR_RECEIPTS_URL ?? "",
  receiptsSecret: process.env.VENDOR_RECEIPTS_SECRET ?? "",
  log: (line) => console.error(`[vendor] ${line}`),
});
process.on("SIGTERM", () => void vendor.close().then(() => process.exit(0)));
