// The UTF-8 byte order mark an export may start with. Excel on Windows reads a CSV file without it
// in the machine's legacy code page, so ₹, Hindi and other non-English names come out garbled; with
// it, Excel reads UTF-8. Other programs (Google Sheets, Numbers, LibreOffice, scripts) read UTF-8
// either way and some of them keep the mark as part of the first header, so it is asked for, not
// always sent. Every import of the product skips it (app/lib/csv-records.ts).

/** EF BB BF: U+FEFF encoded as UTF-8. */
export const UTF8_BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/** The export form's checkbox and the line that says when to pick it. */
export const BOM_TEXTS = {
  label: "For Excel on Windows (UTF-8 with BOM)",
  hint: "Pick it when the file will be opened in Excel on Windows, which otherwise garbles ₹ and names in Hindi or other scripts. Leave it off for Google Sheets, Numbers, LibreOffice and programs.",
} as const;

/** Whether an export's address asks for the mark: `?bom=1` (or true, on, yes). */
export function wantsBom(params: URLSearchParams): boolean {
  return ["1", "true", "on", "yes"].includes((params.get("bom") ?? "").trim().toLowerCase());
}

/** The stream with the mark before its first byte. */
export function withUtf8Bom(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(UTF8_BOM.slice());
        return;
      }
      try {
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel(reason) {
      await reader.cancel(reason);
    },
  });
}

/** A CSV download's Response with the mark added to its body when asked for (headers kept). */
export function csvResponseWithBom(response: Response, bom: boolean): Response {
  if (!bom || !response.body) return response;
  return new Response(withUtf8Bom(response.body), { status: response.status, headers: response.headers });
}
