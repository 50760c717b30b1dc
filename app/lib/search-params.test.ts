import { describe, expect, it } from "vitest";
import { withSearchParams } from "./search-params";

describe("withSearchParams", () => {
  const params = new URLSearchParams("q=asha&cursor=abc");
  it("sets, replaces and removes keys, keeping the rest", () => {
    expect(withSearchParams(params, { delete: "id1" }, "/customers")).toBe("/customers?q=asha&cursor=abc&delete=id1");
    expect(withSearchParams(params, { q: "ravi", cursor: null }, "/customers")).toBe("/customers?q=ravi");
    expect(withSearchParams(params, { q: "" }, "/orders")).toBe("/orders?cursor=abc");
  });
  it("gives the bare path, or '?' for the current page, when nothing is left", () => {
    expect(withSearchParams(new URLSearchParams("q=x"), { q: null }, "/orders")).toBe("/orders");
    expect(withSearchParams(new URLSearchParams("q=x"), { q: null })).toBe("?");
  });
  it("does not change the params it was given", () => {
    withSearchParams(params, { q: null });
    expect(params.get("q")).toBe("asha");
  });
});
