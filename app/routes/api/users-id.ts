// PUT /api/users/{id}: the profile fallback (docs/rules.md#payloads). Only the caller's own id exists for them.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, notFound, parseOrThrow, readJson } from "~/lib/api.server";
import { ProfileSchema } from "~/schemas/profile";
import { withApi } from "~/services/auth.server";
import { toPublicUser, updateProfile } from "~/services/users.server";

export async function loader({ request, params }: LoaderFunctionArgs) {
  return withApi(request, async (user) => {
    if (params.id !== user.id) throw notFound("User");
    return toPublicUser(user);
  });
}

export async function action({ request, params }: ActionFunctionArgs) {
  return withApi(request, async (user) => {
    if (params.id !== user.id) throw notFound("User");
    if (request.method !== "PUT" && request.method !== "PATCH") {
      throw new ApiError("bad_request", "Use PUT to update a user");
    }
    const input = parseOrThrow(ProfileSchema, await readJson(request));
    return toPublicUser(await updateProfile(user.id, input));
  });
}
