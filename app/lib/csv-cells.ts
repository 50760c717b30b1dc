// Spreadsheet formula injection: a cell that starts with =, +, -, @, a tab or a carriage return is
// run as a formula by Excel, LibreOffice and Google Sheets when a user opens an exported CSV. Every
// CSV the product writes goes through csvText(), which prefixes such cells with a single quote (the
// OWASP "CSV injection" advice); the import reads that prefix back off with importedCell(), so what is
// stored never changes and an export re-imports as the same data.
import { stringify } from "csv-stringify/sync";

// Formula-like text, after any quotes: a stored value that itself starts with quotes before such
// text gets one more on export, so reading one quote back off is always exact.
const FORMULA_START = /^'*[=+\-@\t\r]/;

/** The cell as written to a CSV file: text that a spreadsheet would run is made inert. */
export function neutraliseCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/** A cell as read from a CSV file: the quote a CSV export put before a formula-like text is removed. */
export function importedCell(value: string): string {
  return value.startsWith("'") && FORMULA_START.test(value.slice(1)) ? value.slice(1) : value;
}

/** Rows as CSV text, every text cell neutralised; numbers are written as they are. */
export function csvText(rows: readonly (readonly (string | number)[])[]): string {
  return stringify(rows.map((row) => row.map((cell) => (typeof cell === "string" ? neutraliseCell(cell) : cell))));
}
