// The built-in vendor (the simulated e-mail vendor) running in the test's process as the server
// runs it, named by SIMULATED_VENDOR_URL and SIMULATED_VENDOR_KEY for the duration of `work`: for
// tests of a message sent outside a campaign (a template's test). The app's modules are loaded when
// called, after the test database is set up.
import type { SimulatedVendor } from "~/services/sending/simulated-vendor.server";

export async function withBuiltInVendor<T>(work: (vendor: SimulatedVendor) => Promise<T>): Promise<T> {
  const { startSimulatedVendor } = await import("~/services/sending/simulated-vendor.server");
  const { resetEnvCache } = await import("~/env.server");
  const vendor = await startSimulatedVendor({
    apiKey: "vendor-key",
    receiptsUrl: "http://127.0.0.1:9/none",
    receiptsSecret: "s",
  });
  process.env.SIMULATED_VENDOR_URL = vendor.url;
  process.env.SIMULATED_VENDOR_KEY = "vendor-key";
  resetEnvCache();
  try {
    return await work(vendor);
  } finally {
    delete process.env.SIMULATED_VENDOR_URL;
    delete process.env.SIMULATED_VENDOR_KEY;
    resetEnvCache();
    await vendor.close();
  }
}
