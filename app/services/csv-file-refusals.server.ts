// What an import of a CSV file (customers, the suppression list) answers when it cannot use the
// file: a 422 whose message says why, shown to the person as it is.
import { ApiError } from "~/lib/api.server";
import { CsvFormatError, NOT_CSV_TEXT } from "~/lib/csv-records";

/** A refusal of the file (422): nothing was imported. */
export function refuse(message: string): ApiError {
  return new ApiError("unprocessable", message);
}

/**
 * What stopped the reading of a file, as the person is told: not text (`binary`, which can trip the
 * reader or a header check before the file's first bytes are all seen), not valid CSV, or not
 * readable at all; a refusal made while reading stands as it was.
 */
export function unreadableFile(error: unknown, binary: boolean): ApiError {
  if (binary) return refuse(NOT_CSV_TEXT);
  if (error instanceof ApiError) return error;
  if (error instanceof CsvFormatError)
    return refuse(`The file is not a valid CSV file, so nothing was imported: ${error.message}`);
  const message = error instanceof Error ? error.message : String(error);
  return refuse(`The file could not be read, so nothing was imported: ${message}`);
}
