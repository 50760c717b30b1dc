// The control-character rule of every text field (docs/rules.md#text-fields). A one-line field (a
// name, a phone, a subject) takes no control character at all: a CR or LF there could end up in a
// mail header (a From name, a Subject) and start a header of its own, and a NUL, an escape or a
// tab is never typed into one. A multi-line field (notes, an address, a description, a message
// body) takes line breaks and tabs, and no other control character.
import { z } from "zod";

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
export const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- the same, less tab, line feed and carriage return
const CONTROL_BUT_LINE_BREAKS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

export const singleLineMessage = (label?: string) =>
  label
    ? `${label} cannot contain line breaks or other control characters`
    : "Line breaks and other control characters are not allowed here";

export const multiLineMessage = (label?: string) =>
  label ? `${label} cannot contain control characters` : "Control characters are not allowed here";

/** A one-line text field: no control character (CR, LF, tab, NUL, escape, DEL, C1). */
export function singleLine<T extends z.ZodString>(schema: T, label?: string): T {
  return schema.refine((value) => !CONTROL_CHARACTERS.test(value), singleLineMessage(label)) as T;
}

/** A multi-line text field: line breaks and tabs, no other control character. */
export function multiLine<T extends z.ZodString>(schema: T, label?: string): T {
  return schema.refine((value) => !CONTROL_BUT_LINE_BREAKS.test(value), multiLineMessage(label)) as T;
}

/**
 * Text from a source that cannot be refused (a Google profile's name) made one line: every run of
 * control characters becomes one space, then the ends are trimmed.
 */
export function toOneLine(value: string): string {
  return value.replace(new RegExp(`${CONTROL_CHARACTERS.source}+`, "g"), " ").trim();
}

/** An e-mail address a person types (sign-in, their profile, a person added): trimmed and lower-cased. */
export const typedEmail = () =>
  z.string({ message: "Enter a valid e-mail address" }).trim().toLowerCase().email("Enter a valid e-mail address");
