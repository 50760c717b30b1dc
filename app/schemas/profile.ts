import { z } from "zod";
import { canonicalTimeZone } from "~/lib/dates";
import { singleLine, typedEmail } from "~/schemas/text";

const text = (max: number, label: string) => singleLine(z.string().trim(), label).max(max, `At most ${max} characters`);

/** The six profile fields, shared by the /profile form and PUT /api/auth/profile. */
export const ProfileSchema = z.object({
  firstName: text(100, "First name").default(""),
  lastName: text(100, "Last name").default(""),
  // A form sends an emptied field as nothing at all: that too is not a valid address.
  email: typedEmail().max(254),
  phone: text(40, "Phone").default(""),
  company: text(200, "Company").default(""),
  position: text(200, "Position").default(""),
});

export type ProfileInput = z.infer<typeof ProfileSchema>;

/** The six profile fields of a user (stored or as the client has it), and nothing else. */
export function profileFields(user: ProfileInput): ProfileInput {
  return {
    firstName: user.firstName,
    lastName: user.lastName,
    email: user.email,
    phone: user.phone,
    company: user.company,
    position: user.position,
  };
}

export const TIME_ZONE_MESSAGE = "Choose a time zone from the list (an IANA name such as Asia/Kolkata)";

/** An IANA time zone this runtime knows, stored under its canonical name. */
export const TimeZoneSchema = z
  .string({ message: TIME_ZONE_MESSAGE })
  .trim()
  .max(64, TIME_ZONE_MESSAGE)
  .transform((value, ctx) => {
    const zone = canonicalTimeZone(value);
    if (zone === null) {
      ctx.addIssue({ code: "custom", message: TIME_ZONE_MESSAGE });
      return z.NEVER;
    }
    return zone;
  });

/**
 * The /profile form: the six fields and the time zone. An empty choice (the form sends nothing)
 * is null: dates follow the zone the browser reports.
 */
export const ProfileFormSchema = ProfileSchema.extend({ timeZone: TimeZoneSchema.nullable().default(null) });
export type ProfileFormInput = z.infer<typeof ProfileFormSchema>;

export const LocalSignInSchema = z.object({
  name: singleLine(z.string().trim(), "Name").min(1, "Enter your name").max(100, "At most 100 characters"),
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address").max(254),
});
