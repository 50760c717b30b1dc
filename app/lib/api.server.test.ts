// jsonResponse holds its text and makes the body stream only on demand: to everything that reads
// it, it must behave as the Response `new Response(text)` would.
import { describe, expect, it } from "vitest";
import { JSON_TEXT, jsonResponse } from "./api.server";

const data = { id: "c1", name: "Meera Iyer", tags: ["₹ spend", "visits"], nested: { n: 1 } };
const text = JSON.stringify(data);

describe("jsonResponse", () => {
  it("is a Response with the status, the JSON headers and the caller's headers", () => {
    const r = jsonResponse(data, { status: 201, headers: { Location: "/api/customers/c1" } });
    expect(r).toBeInstanceOf(Response);
    expect(r.status).toBe(201);
    expect(r.ok).toBe(true);
    expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(r.headers.get("cache-control")).toBe("no-store");
    expect(r.headers.get("location")).toBe("/api/customers/c1");
    expect(r.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
  });

  it.each([
    ["text", (r: Response) => r.text(), text],
    ["json", (r: Response) => r.json(), data],
    ["arrayBuffer", async (r: Response) => new TextDecoder().decode(await r.arrayBuffer()), text],
    ["blob", async (r: Response) => (await r.blob()).text(), text],
    ["body stream", async (r: Response) => new Response(r.body).text(), text],
  ] as const)("reads through %s, once", async (_name, read, expected) => {
    const r = jsonResponse(data);
    expect(r.bodyUsed).toBe(false);
    expect(await read(r)).toEqual(expected);
    expect(r.bodyUsed).toBe(true);
    await expect(r.text()).rejects.toThrow(TypeError);
    expect((r as Response & { [JSON_TEXT]?: string })[JSON_TEXT]).toBeUndefined();
  });

  it("hands its text to the API server while unread, and clones with its body", async () => {
    const r = jsonResponse([1, "two", null]);
    expect((r as Response & { [JSON_TEXT]?: string })[JSON_TEXT]).toBe('[1,"two",null]');
    const copy = r.clone();
    expect(await copy.json()).toEqual([1, "two", null]);
    expect(copy.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(await r.text()).toBe('[1,"two",null]');
    expect(() => r.clone()).toThrow(TypeError);
  });

  it("writes undefined as null", async () => {
    expect(await jsonResponse(undefined).text()).toBe("null");
  });
});
