// GET /api/brand: the caller's brand (the defaults when never set). PUT: keeps it whole, a field
// left out taking its default; a colour, font or logo address that is not one is a 400 naming the
// field. Every template wears it; campaigns keep the brand they were made with.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { allowMethods, parseOrThrow, readJson } from "~/lib/api.server";
import { BrandInputSchema } from "~/schemas/brand";
import { withApi } from "~/services/auth.server";
import { getBrand, saveBrand } from "~/services/brand.server";

export async function loader({ request }: LoaderFunctionArgs) {
  return withApi(request, async (user) => getBrand(user.id));
}

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "PUT");
  return withApi(request, async (user) => saveBrand(user.id, parseOrThrow(BrandInputSchema, await readJson(request))));
}
