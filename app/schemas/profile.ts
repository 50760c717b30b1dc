import { z } from "zod";

const text = (max: number) => z.string().trim().max(max, `At most ${max} characters`);

/** The six profile fields, shared by the /profile form and PUT /api/auth/profile. */
export const ProfileSchema = z.object({
  firstName: text(100).default(""),
  lastName: text(100).default(""),
  // A form sends an emptied field as nothing at all: that too is not a valid address.
  email: z
    .string({ message: "Enter a valid e-mail address" })
    .trim()
    .toLowerCase()
    .email("Enter a valid e-mail address")
    .max(254),
  phone: text(40).default(""),
  company: text(200).default(""),
  position: text(200).default(""),
});

export type ProfileInput = z.infer<typeof ProfileSchema>;

export const LocalSignInSchema = z.object({
  name: z.string().trim().min(1, "Enter your name").max(100, "At most 100 characters"),
  email: z.string().trim().toLowerCase().email("Enter a valid e-mail address").max(254),
});
