import { describe, expect, it } from "vitest";
import { NAV_ITEMS, avatarLetter, isNavActive, topBarTitle, welcomeText } from "./shell";

describe("the top bar title", () => {
  it.each([
    ["/", "Dashboard"],
    ["", "Dashboard"],
    ["/dashboard", "Dashboard"],
    ["/customers", "Customers"],
    ["/customers/new", "Customers"],
    ["/orders/507f1f77bcf86cd799439011", "Orders"],
    ["/profile", "Profile"],
    ["/notifications", "Notifications"],
    ["/campaigns/edit/1", "Campaigns"],
    ["/suppressions", "Suppressions"],
    ["/fields", "Fields"],
    ["/tags", "Tags"],
  ])("%s shows %s", (path, title) => {
    expect(topBarTitle(path)).toBe(title);
  });
});

describe("navigation", () => {
  it("has the ten entries in order", () => {
    expect(NAV_ITEMS.map((i) => [i.label, i.to])).toEqual([
      ["Dashboard", "/"],
      ["Customers", "/customers"],
      ["Fields", "/fields"],
      ["Tags", "/tags"],
      ["Orders", "/orders"],
      ["Segments", "/segments"],
      ["Templates", "/templates"],
      ["Campaigns", "/campaigns"],
      ["Flows", "/flows"],
      ["Suppressions", "/suppressions"],
    ]);
  });

  it("highlights the current entry, including its sub-pages", () => {
    expect(isNavActive("/", "/")).toBe(true);
    expect(isNavActive("/", "/dashboard")).toBe(true);
    expect(isNavActive("/", "/customers")).toBe(false);
    expect(isNavActive("/customers", "/customers")).toBe(true);
    expect(isNavActive("/customers", "/customers/new")).toBe(true);
    expect(isNavActive("/customers", "/customersx")).toBe(false);
    expect(isNavActive("/orders", "/customers")).toBe(false);
    expect(isNavActive("/segments", "/profile")).toBe(false);
  });
});

describe("greeting and avatar", () => {
  it("welcomes by name, falling back to User", () => {
    expect(welcomeText("Asha Rao")).toBe("Welcome, Asha Rao!");
    expect(welcomeText("  ")).toBe("Welcome, User!");
    expect(welcomeText(null)).toBe("Welcome, User!");
    expect(welcomeText(undefined)).toBe("Welcome, User!");
  });

  it("shows the first letter of the display name, or U", () => {
    expect(avatarLetter("asha Rao")).toBe("A");
    expect(avatarLetter(" ravi")).toBe("R");
    expect(avatarLetter("")).toBe("U");
    expect(avatarLetter(null)).toBe("U");
    expect(avatarLetter(undefined)).toBe("U");
  });
});
