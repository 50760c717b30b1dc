// The Use AI dialog's call of POST /api/segments/describe (writeConditions), with fetch stubbed:
// the server's conditions read back into the builder with its words and writer, its refusals
// shown as it words them, and the local writer in the browser when the server cannot be asked.
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeConditions } from "~/components/segment-preview";
import { builderRows } from "~/lib/segments-builder";
import { PUNE, PUNE_CONDITIONS, PUNE_ROWS } from "~/lib/segments-ai-example";

function answer(status: number, body: unknown) {
  const fetch = vi.fn(async () =>
    typeof body === "string"
      ? new Response(body, { status })
      : new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }),
  );
  vi.stubGlobal("fetch", fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("writeConditions", () => {
  it("posts the description and reads the server's conditions into the builder", async () => {
    const fetch = answer(200, {
      conditions: PUNE_CONDITIONS,
      builder: { logic: "AND", children: [] },
      summary: "Birthday anniversary within 7 days AND City is Pune AND Bought Saree AND Last open in the last 90 days",
      writer: "llm",
    });
    const result = await writeConditions(PUNE);
    expect(fetch).toHaveBeenCalledWith(
      "/api/segments/describe",
      expect.objectContaining({
        method: "POST",
        body: JSON.stringify({
          description: PUNE,
        }),
      }),
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.written).toMatchObject({ conditions: PUNE_CONDITIONS, writer: "llm" });
    expect(result.written.summary).toContain("City is Pune");
    expect(builderRows(result.written.builder)).toEqual(PUNE_ROWS);
  });

  it("shows the server's refusal of the description (400, 422) as it words it", async () => {
    answer(422, {
      error: {
        code: "unprocessable",
        message: "Failed to process your request. Please try different wording.",
        fields: { description: "Failed to process your request. Please try different wording." },
      },
    });
    expect(await writeConditions("12345 !!!")).toEqual({
      ok: false,
      message: "Failed to process your request. Please try different wording.",
    });
    answer(400, {
      error: {
        code: "bad_request",
        message: "description: description must be at most 1000 characters",
        fields: { description: "description must be at most 1000 characters" },
      },
    });
    expect(await writeConditions("x".repeat(1001))).toEqual({
      ok: false,
      message: "description must be at most 1000 characters",
    });
  });

  it("falls back on the local writer when the server cannot be asked or answers something else", async () => {
    const local = {
      ok: true,
      written: expect.objectContaining({
        conditions: { totalSpend: { $gt: 10000 } },
        summary: "Total spend greater than ₹10,000",
        writer: "local",
      }),
    };
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        throw new TypeError("Failed to fetch");
      }),
    );
    expect(await writeConditions("customers who spent more than 10000")).toEqual(local);
    answer(500, { error: { code: "internal", message: "Something went wrong" } });
    expect(await writeConditions("customers who spent more than 10000")).toEqual(local);
    answer(200, "<html>a proxy's page</html>");
    expect(await writeConditions("customers who spent more than 10000")).toEqual(local);
    answer(200, { conditions: { height: { $gt: 1 } }, summary: "?", writer: "llm" });
    expect(await writeConditions("customers who spent more than 10000")).toEqual(local);
  });

  it("gives up quietly when the dialog aborts it", async () => {
    const controller = new AbortController();
    vi.stubGlobal(
      "fetch",
      vi.fn(async () => {
        controller.abort();
        throw new DOMException("aborted", "AbortError");
      }),
    );
    await expect(writeConditions("big spenders", controller.signal)).rejects.toThrow("aborted");
  });
});
