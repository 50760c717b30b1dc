import { z } from "zod";
import { singleLine } from "~/schemas/text";

/** The owner's form on the Users screen that adds a person: their name and e-mail. */
export const AddPersonSchema = z.object({
  name: singleLine(z.string({ message: "Enter their name" }).trim(), "Name")
    .min(1, "Enter their name")
    .max(100, "At most 100 characters"),
  email: z
    .string({ message: "Enter a valid e-mail address" })
    .trim()
    .toLowerCase()
    .email("Enter a valid e-mail address")
    .max(254, "At most 254 characters"),
});

export type AddPersonInput = z.infer<typeof AddPersonSchema>;
