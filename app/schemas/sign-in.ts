import { z } from "zod";
import { singleLine, typedEmail } from "~/schemas/text";

/**
 * The local sign-in form (/login) and POST /auth/local. The name is asked for only when the e-mail
 * is new (a sign-up); a new password's rules (length, commonness) are checked on the server then.
 */
export const SignInSchema = z.object({
  name: singleLine(z.string().trim(), "Name").max(100, "At most 100 characters").optional(),
  email: typedEmail().max(254),
  password: z
    .string({ message: "Enter your password" })
    .min(1, "Enter your password")
    .max(256, "At most 256 characters"),
});

export type SignInInput = z.infer<typeof SignInSchema>;
