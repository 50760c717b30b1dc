// Tenants with customers the seed made up (no orders), and the launch helpers bound to a test's
// connection: what the sending, suppression, attribution and resend tests start from
// (app/services/sending/*.server.test.ts, app/services/campaign*.server.test.ts,
// app/services/attribution.server.test.ts). Import it after the test database is set up
// (tests/helpers/db.ts), as the app modules it loads.
import { beforeAll } from "vitest";
import type { AnyConnection } from "~/db/connection.server";
import type { SegmentNode } from "~/lib/segments";
import { seedTenant } from "~/services/seed.server";
import {
  customerEmails,
  deliveryAddresses,
  deliveryRows,
  everyone,
  launchTo,
  launchWithoutSegment,
} from "./campaign-launch";
import { campaignRow, expectCountersAddUp } from "./campaign-send";
import { createTestUser } from "./db";

/** A tenant to make: its user's name, and how many customers the seed makes up for it from `seed`. */
export type TenantSeed = { name: string; customers: number; seed: number };

/** A new tenant with `customers` customers the seed made up from `seed`, and no orders. */
export async function seededTenant(name: string, customers: number, seed: number): Promise<{ id: string }> {
  const user = await createTestUser(name);
  await seedTenant(user.id, { customers, orders: 0, seed });
  return user;
}

/**
 * The test file's tenant and another one, made and then seeded before its tests (beforeAll; call
 * at module scope after useTestDatabase()). Their ids are set by the time the first test runs.
 */
export function seedTenantsBeforeAll(
  tenant: TenantSeed,
  other: TenantSeed,
): { tenant: { id: string }; other: { id: string } } {
  const made = { tenant: { id: "" }, other: { id: "" } };
  beforeAll(async () => {
    made.tenant.id = (await createTestUser(tenant.name)).id;
    made.other.id = (await createTestUser(other.name)).id;
    await seedTenant(made.tenant.id, { customers: tenant.customers, orders: 0, seed: tenant.seed });
    await seedTenant(made.other.id, { customers: other.customers, orders: 0, seed: other.seed });
  });
  return made;
}

/** The launch and delivery-row helpers of tests/helpers/campaign-launch.ts and campaign-send.ts on the test's connection. */
export function launchHelpers(connection: () => AnyConnection) {
  return {
    /** The campaign's row as stored now. */
    campaign: (id: string) => campaignRow(connection(), id),
    /** The campaign's delivery rows, by seq. */
    rows: (campaignId: string) => deliveryRows(connection(), campaignId),
    /** The campaign's rows with the address each went to, by seq. */
    addresses: (campaignId: string) => deliveryAddresses(connection(), campaignId),
    /** The tenant's customers' addresses in creation order. */
    emailsOf: (userId: string, limit: number, offset = 0) => customerEmails(connection(), userId, limit, offset),
    /** The campaign's counters add up (expectCountersAddUp() of campaign-send.ts). */
    expectCountersAddUp: (id: string) => expectCountersAddUp(connection(), id),
    /** launchTo(): a campaign to the customers that meet `conditions`, from a stored segment. */
    launch: (userId: string, conditions: SegmentNode = everyone, name = "Diwali offer") =>
      launchTo(connection(), userId, conditions, name),
    /** launchWithoutSegment(): a campaign to the customers that meet `conditions`, no stored segment behind it. */
    launchWithoutSegment: (userId: string, conditions: SegmentNode = everyone, name?: string) =>
      launchWithoutSegment(connection(), userId, conditions, name),
  };
}

/**
 * What the sending tests (app/services/sending/delivery-rows.server.test.ts and engine.server.test.ts)
 * start from: a tenant of 400 customers and another of 50, and the helpers on the test's connection.
 */
export function sendingTenants(connection: () => AnyConnection) {
  return {
    ...seedTenantsBeforeAll(
      { name: "Sender", customers: 400, seed: 7 },
      { name: "Other tenant", customers: 50, seed: 8 },
    ),
    ...launchHelpers(connection),
  };
}

/**
 * What the suppression tests (app/services/campaigns-suppression.server.test.ts and
 * campaign-send-suppression.server.test.ts) start from: a tenant of 300 customers and another of 60,
 * and the helpers on the test's connection, launching with no stored segment behind the campaign.
 */
export function suppressionTenants(connection: () => AnyConnection) {
  const { campaign, emailsOf, addresses, expectCountersAddUp, launchWithoutSegment } = launchHelpers(connection);
  return {
    ...seedTenantsBeforeAll(
      { name: "Suppressing sender", customers: 300, seed: 21 },
      { name: "Other tenant", customers: 60, seed: 22 },
    ),
    campaign,
    emailsOf,
    rowsOf: addresses,
    expectCountersAddUp,
    launch: launchWithoutSegment,
  };
}
