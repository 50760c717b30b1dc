// The one way a screen loads the record it is about. Services throw ApiError for a record that is
// missing or belongs to another tenant (both "not found"); the screen turns that into a thrown
// response with its own message, which its error boundary renders with a Back button.
import { data } from "@remix-run/react";
import { ApiError } from "~/lib/api.server";

export async function loadOrThrow<T>(load: Promise<T>, message: string): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof ApiError) throw data(message, { status: error.status });
    throw error;
  }
}

/**
 * The one way a screen's form deletes its record: a refusal (the record is gone, deleted already
 * in another tab, or another tenant's) is thrown as a response with `{prefix}: {message}` and the
 * error's status (404), which the screen's error boundary renders, with or without JavaScript.
 */
export async function deleteOrThrow<T>(remove: Promise<T>, prefix = "Delete failed"): Promise<T> {
  try {
    return await remove;
  } catch (error) {
    if (error instanceof ApiError) throw data(`${prefix}: ${error.message}`, { status: error.status });
    throw error;
  }
}
