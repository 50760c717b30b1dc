// GET /api/tags: the caller's tags by name, each with how many customers carry it.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods } from "~/lib/api.server";
import { withApi } from "~/services/auth.server";
import { listTags } from "~/services/tags.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, (user) => listTags(user.id));
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET");
}
