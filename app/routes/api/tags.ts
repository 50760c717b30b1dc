// GET /api/tags: the caller's tags by name, each with how many customers carry it.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { methodNotAllowed } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { listTags } from "~/services/tags.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, (user) => listTags(user.id));
}

export const action = methodNotAllowed("GET");
