// @engines sqlite postgres
// The time zone dates are shown in: the /profile setting (saved, cleared, a bad zone refused with
// its message), the layout's choice between that setting, the zone the browser reported in its
// cookie, and the default (docs/decisions/0016-time-zones.md); exports in ISO 8601 with that zone's
// offset.
import { describe, expect, it } from "vitest";
import { createTestUser, useTestDatabase as setUpTestDatabase } from "../helpers/db";
import { args, bearerFor, cookieFor, formRequest, makeRequest } from "../helpers/requests";

setUpTestDatabase();

const profile = await import("~/routes/profile");
const layout = await import("~/routes/app-layout");
const { db } = await import("~/db/prisma.server");
const { TIME_ZONE_MESSAGE } = await import("~/schemas/profile");
const exportPage = await import("~/routes/customers-export");
const exportApi = await import("~/routes/api/customers-export");
const { importCustomers } = await import("~/services/customer-import.server");

type Reply = { error?: Record<string, string[] | null> | null; initialValue?: Record<string, unknown> | null };
type DataResult<T> = { data: T; init: { status?: number } | null };

const fields = (email: string, timeZone?: string) => ({
  firstName: "Tara",
  lastName: "Singh",
  email,
  ...(timeZone === undefined ? {} : { timeZone }),
});

const savedZone = async (id: string) =>
  (await db().user.findUniqueOrThrow({ where: { id }, select: { timeZone: true } })).timeZone;

describe("the time zone on /profile", () => {
  it("saves an IANA zone, and an empty choice goes back to the browser's zone", async () => {
    const user = await createTestUser();
    const cookie = await cookieFor(user.id);
    const saved = (await profile.action(
      args(formRequest("/profile", fields(user.email, "America/New_York"), { cookie })),
    )) as Response;
    expect(saved.status).toBe(302);
    expect(await savedZone(user.id)).toBe("America/New_York");

    // The form sends nothing for its first choice, "Your browser's time zone".
    await profile.action(args(formRequest("/profile", fields(user.email, ""), { cookie })));
    expect(await savedZone(user.id)).toBeNull();
  });

  it("refuses a zone that does not exist with a message on the field, and keeps the saved one", async () => {
    const user = await createTestUser();
    await db().user.update({ where: { id: user.id }, data: { timeZone: "Europe/London" } });
    const cookie = await cookieFor(user.id);
    for (const bad of ["Mars/Olympus_Mons", "+05:30", "IST", "Asia/Kolkata<script>", "z".repeat(80)]) {
      const res = (await profile.action(
        args(formRequest("/profile", fields(user.email, bad), { cookie })),
      )) as unknown as DataResult<Reply>;
      expect(res.init?.status, bad).toBe(400);
      expect(res.data.error?.timeZone, bad).toEqual([TIME_ZONE_MESSAGE]);
      expect(res.data.error?.[""]).toEqual(["Failed to update profile. Please try again."]);
    }
    expect(TIME_ZONE_MESSAGE).toBe("Choose a time zone from the list (an IANA name such as Asia/Kolkata)");
    expect(await savedZone(user.id)).toBe("Europe/London");
  });

  it("the page offers the zones with their offsets and says the browser's zone", async () => {
    const user = await createTestUser();
    const cookie = `${await cookieFor(user.id)}; crm_tz=${encodeURIComponent("America/Los_Angeles")}`;
    const data = await profile.loader(args(makeRequest("/profile", { auth: { cookie } })));
    expect(data.timeZone).toBeNull();
    expect(data.browserTimeZone).toBe("America/Los_Angeles");
    expect(data.timeZones).toContainEqual({ value: "UTC", label: "(UTC+00:00) UTC" });
    expect(data.timeZones.map((z) => z.value)).toContain("Asia/Tokyo");
    expect(data.timeZones.find((z) => z.value === "Asia/Tokyo")?.label).toBe("(UTC+09:00) Asia/Tokyo");
  });
});

describe("the zone the layout gives every screen", () => {
  it("is the profile's choice, else the browser's report, else the default", async () => {
    const user = await createTestUser();
    const session = await cookieFor(user.id);
    const load = (cookie: string) => layout.loader(args(makeRequest("/", { auth: { cookie } })));

    expect(await load(session)).toMatchObject({ timeZone: "Asia/Kolkata", source: "default" });
    expect(await load(`${session}; crm_tz=Europe%2FBerlin`)).toMatchObject({
      timeZone: "Europe/Berlin",
      source: "browser",
    });
    // A cookie that is not a zone is ignored.
    expect(await load(`${session}; crm_tz=Mars%2FOlympus`)).toMatchObject({ source: "default" });
    expect(await load(`${session}; crm_tz=%E0%A4`)).toMatchObject({ source: "default" });

    await profile.action(args(formRequest("/profile", fields(user.email, "Asia/Tokyo"), { cookie: session })));
    expect(await load(`${session}; crm_tz=Europe%2FBerlin`)).toMatchObject({
      timeZone: "Asia/Tokyo",
      source: "profile",
    });
  });
});

describe("CSV exports", () => {
  it("write lastActive and createdAt as ISO 8601 with the viewer's offset, the same instants", async () => {
    const user = await createTestUser();
    async function* file() {
      yield new TextEncoder().encode(
        "firstName,lastName,email,lastActive\nZoe,Park,zoe@example.com,2026-11-23T18:28:00Z\n",
      );
    }
    expect(await importCustomers(user.id, file())).toMatchObject({ created: 1, failed: 0 });
    const session = await cookieFor(user.id);
    const lastActiveOf = async (res: Response) => {
      const [header, row] = (await res.text()).trim().split("\n");
      const columns = header.split(",");
      const cells = row.split(",");
      return { lastActive: cells[columns.indexOf("lastActive")], createdAt: cells[columns.indexOf("createdAt")] };
    };

    // The browser said Tokyo; nothing chosen.
    const tokyo = await lastActiveOf(
      (await exportPage.loader(
        args(makeRequest("/customers/export", { auth: { cookie: `${session}; crm_tz=Asia%2FTokyo` } })),
      )) as Response,
    );
    expect(tokyo.lastActive).toBe("2026-11-24T03:28:00.000+09:00");
    expect(tokyo.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+09:00$/);

    // Chosen on the profile: New York, in the page's export and the API's alike.
    await profile.action(args(formRequest("/profile", fields(user.email, "America/New_York"), { cookie: session })));
    const page = await lastActiveOf(
      (await exportPage.loader(args(makeRequest("/customers/export", { auth: { cookie: session } })))) as Response,
    );
    expect(page.lastActive).toBe("2026-11-23T13:28:00.000-05:00");
    const api = await lastActiveOf(
      (await exportApi.loader(
        args(makeRequest("/api/customers/export", { auth: { bearer: await bearerFor(user.id) } })),
      )) as Response,
    );
    expect(api.lastActive).toBe("2026-11-23T13:28:00.000-05:00");
    expect(Date.parse(api.lastActive)).toBe(Date.UTC(2026, 10, 23, 18, 28));
    expect(Date.parse(api.createdAt)).toBe(Date.parse(tokyo.createdAt));
  });
});
