// The CSV file a page's import form uploads (/customers/import and /suppressions/import): a plain
// multipart form post whose part "file" is streamed into the import as it arrives, never held whole
// in memory. What the import refuses (an ApiError: not CSV, a column missing) is told on the page;
// any other error is a fault and goes on to the error boundary and the server log.
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { ApiError } from "~/lib/api.server";

/** What the page says when no file came. */
export const NO_CSV_FILE = "Choose a CSV file to import.";

/** Longest text field read before the file (the rest of a longer one is left unread). */
const FIELD_CHARS = 1000;

export type CsvUpload<T> = { ok: true; result: T } | { ok: false; message: string };

/**
 * Runs `importFile` on the form's file part ("file") as it streams in; the parts after it are
 * drained, as is a file the import refused. With `fields`, the text fields sent before the file are
 * read into it (the first thousand characters or so of each) for `importFile` to use; without, they
 * are drained too.
 */
export async function importUploadedCsv<T>(
  request: Request,
  importFile: (chunks: AsyncIterable<Uint8Array>) => Promise<T>,
  fields?: Map<string, string>,
): Promise<CsvUpload<T>> {
  let result: T | undefined;
  let failure: string | undefined;
  let fault: unknown;
  const drain = async (chunks: AsyncIterable<Uint8Array>) => {
    for await (const chunk of chunks) void chunk;
  };
  const handler: UploadHandler = async ({ name, filename, data: chunks }) => {
    if (filename === undefined && fields) {
      let text = "";
      const decoder = new TextDecoder();
      for await (const chunk of chunks) {
        text += decoder.decode(chunk, { stream: true });
        if (text.length > FIELD_CHARS) break;
      }
      fields.set(name, text);
      return text;
    }
    if (filename === undefined || name !== "file" || result !== undefined || failure !== undefined) {
      await drain(chunks);
      return undefined;
    }
    if (!filename) {
      await drain(chunks);
      failure = NO_CSV_FILE;
      return undefined;
    }
    try {
      result = await importFile(chunks);
    } catch (error) {
      if (!(error instanceof ApiError)) {
        fault = error;
        throw error;
      }
      failure = error.message;
      await drain(chunks);
    }
    return undefined;
  };
  try {
    await unstable_parseMultipartFormData(request, handler);
  } catch {
    // A fault of the import itself goes on; anything else here is an upload cut short (the browser
    // went away, or not a multipart form), told as one unless the import had finished.
    if (fault !== undefined) throw fault;
    if (result === undefined) failure = "The upload could not be read. Choose the file again and retry.";
  }
  return result === undefined ? { ok: false, message: failure ?? NO_CSV_FILE } : { ok: true, result };
}
