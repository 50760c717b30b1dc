// Any /api path the contract does not name: a JSON 404, never the HTML app.
import { ApiError, errorResponse } from "~/lib/api.server";

const answer = ({ request }: { request: Request }) =>
  errorResponse(new ApiError("not_found", `No API route for ${request.method} ${new URL(request.url).pathname}`));

export const loader = answer;
export const action = answer;
