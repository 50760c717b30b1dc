// Ids are 24 lowercase hex characters, time-ordered like MongoDB ObjectIds: 4 bytes of seconds,
// 5 random bytes fixed per process, and a 3-byte counter. Sorting by id sorts by creation.
const processRandom = Array.from(globalThis.crypto.getRandomValues(new Uint8Array(5)))
  .map((b) => b.toString(16).padStart(2, "0"))
  .join("");
let counter = globalThis.crypto.getRandomValues(new Uint32Array(1))[0] % 0x1000000;

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

export function newId(date: Date = new Date()): string {
  counter = (counter + 1) % 0x1000000;
  const seconds = Math.floor(date.getTime() / 1000);
  return hex(seconds, 8) + processRandom + hex(counter, 6);
}

export const ID_PATTERN = /^[0-9a-f]{24}$/;

export function isId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

/** The creation time an id carries. */
export function idTime(id: string): Date {
  return new Date(parseInt(id.slice(0, 8), 16) * 1000);
}
