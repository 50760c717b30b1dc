// How the CLI's CSV exports write their file: to standard output or --out FILE, streamed, with a
// UTF-8 byte order mark first when --bom asks for it (for Excel on Windows: app/lib/csv-bom.ts).
import { withUtf8Bom } from "../../app/lib/csv-bom.ts";

/** The help text of every export's --bom. */
export const BOM_OPTION =
  "start the file with a UTF-8 byte order mark: pick it for Excel on Windows, which garbles ₹ and non-English names without it";

/** The export's stream, after a byte order mark when asked for. */
export function csvStream(stream: ReadableStream<Uint8Array>, bom?: boolean): ReadableStream<Uint8Array> {
  return bom ? withUtf8Bom(stream) : stream;
}
