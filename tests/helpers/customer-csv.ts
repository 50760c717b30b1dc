// The customers CSV in tests: a file's text as the stream an import reads, an export read back as
// text, and a tenant's customer found by e-mail with its fields and tags, as a test checks what an
// import left.
import { Readable } from "node:stream";
import { getCustomer, listCustomers } from "~/services/customers.server";

/** A CSV file's text as the byte stream the import reads. */
export const csv = (text: string) => Readable.from([Buffer.from(text)]);

/** An export's bytes as the text a spreadsheet would open. */
export const readAll = async (stream: ReadableStream<Uint8Array>) => new Response(stream).text();

/** The tenant's customer of this e-mail, with its fields and tags. */
export async function customerOf(userId: string, email: string) {
  const [found] = (await listCustomers(userId, { q: email })).customers.filter((c) => c.email === email);
  if (!found) throw new Error(`no customer ${email}`);
  return getCustomer(userId, found.id);
}
