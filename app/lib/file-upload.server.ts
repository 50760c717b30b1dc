// The file a page's upload form sends (a CSV import on /customers/import and /suppressions/import,
// an image on /templates/brand): a plain multipart form post whose part "file" is streamed into
// its reader as it arrives, never held whole in memory by this. What the reader refuses (an
// ApiError: not CSV, a column missing, not an image) is told on the page; any other error is a
// fault and goes on to the error boundary and the server log.
import { unstable_parseMultipartFormData, type UploadHandler } from "@remix-run/node";
import { ApiError } from "~/lib/api.server";

/** What an import page says when no file came (the default of importUploadedFile's `noFile`). */
export const NO_CSV_FILE = "Choose a CSV file to import.";

/** Longest text field read before the file (the rest of a longer one is left unread). */
const FIELD_CHARS = 1000;

export type FileUpload<T> = { ok: true; result: T } | { ok: false; message: string };

/**
 * Runs `importFile` on the form's file part ("file") as it streams in; the parts after it are
 * drained, as is a file the import refused. With `fields`, the text fields sent before the file are
 * read into it (the first thousand characters or so of each) for `importFile` to use; without, they
 * are drained too.
 */
export async function importUploadedFile<T>(
  request: Request,
  importFile: (chunks: AsyncIterable<Uint8Array>, filename: string) => Promise<T>,
  fields?: Map<string, string>,
  noFile = NO_CSV_FILE,
): Promise<FileUpload<T>> {
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
      failure = noFile;
      return undefined;
    }
    try {
      result = await importFile(chunks, filename);
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
  return result === undefined ? { ok: false, message: failure ?? noFile } : { ok: true, result };
}
