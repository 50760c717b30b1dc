// GET and PUT /api/auth/profile: the six profile fields of the signed-in user.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { profileFields, ProfileSchema } from "~/schemas/profile";
import { withApi } from "~/services/auth.server";
import { toPublicUser, updateProfile } from "~/services/users.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => profileFields(user));
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PUT", "PATCH");
  return withApi(request, async (user) => {
    const input = parseOrThrow(ProfileSchema, await readJson(request));
    return toPublicUser(await updateProfile(user.id, input));
  });
}
