import { z } from "zod";
import { singleLine, typedEmail } from "~/schemas/text";

/** The owner's form on the Users screen that adds a person: their name and e-mail. */
export const AddPersonSchema = z.object({
  name: singleLine(z.string({ message: "Enter their name" }).trim(), "Name")
    .min(1, "Enter their name")
    .max(100, "At most 100 characters"),
  email: typedEmail().max(254, "At most 254 characters"),
});

export type AddPersonInput = z.infer<typeof AddPersonSchema>;
