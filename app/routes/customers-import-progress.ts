// GET /customers/import/progress?key=…: how far the signed-in user's running import has got (JSON
// for the import screen's progress bar); 404 for an unknown key or another user's.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { ApiError, errorResponse, methodNotAllowed } from "~/lib/api.server";
import { requireUser } from "~/services/auth.server";
import { ImportProgressKeySchema, importProgress } from "~/services/import-progress.server";

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const key = ImportProgressKeySchema.safeParse(new URL(request.url).searchParams.get("key"));
  if (!key.success)
    return errorResponse(new ApiError("bad_request", key.error.issues[0]?.message ?? "The progress key is not valid."));
  const progress = importProgress(user.id, key.data);
  if (!progress) return errorResponse(new ApiError("not_found", "No import with this key is running."));
  return Response.json(progress, { headers: { "Cache-Control": "no-store" } });
}

/** This address takes GET only: any other method is a 405 that says so. */
export const action = methodNotAllowed("GET");
