// PUT /api/users/{id}: the profile fallback (docs/rules.md#payloads). Only the caller's own id exists for them.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, notFound, parseOrThrow, readJson } from "~/lib/api.server";
import { invariantResponse } from "~/lib/responses";
import { ProfileSchema } from "~/schemas/profile";
import { withApi } from "~/services/auth.server";
import { toPublicUser, updateProfile } from "~/services/users.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    invariantResponse(params.id === user.id, () => notFound("User"));
    return toPublicUser(user);
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PUT", "PATCH");
  return withApi(request, async (user) => {
    invariantResponse(params.id === user.id, () => notFound("User"));
    const input = parseOrThrow(ProfileSchema, await readJson(request));
    return toPublicUser(await updateProfile(user.id, input));
  });
}
