// The rows a CSV import skipped, with their line and reason: the table both import pages show
// (/customers/import and /suppressions/import). On a phone the rows are cards (ResponsiveTable).
import { CardLabel, ResponsiveTable } from "~/components/responsive-table";

export type ImportErrorRow = { line: number; email: string; reason: string };

export function ImportErrorsTable({ errors }: { errors: readonly ImportErrorRow[] }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-slate-200">
      <ResponsiveTable>
        <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
          <tr>
            <th className="px-3 py-2">Line</th>
            <th className="px-3 py-2">Email</th>
            <th className="px-3 py-2">Reason</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {errors.map((e) => (
            <tr key={`${e.line}-${e.email}`}>
              <td className="px-3 py-2 tabular-nums">
                <CardLabel>Line</CardLabel>
                {e.line}
              </td>
              <td className="break-all px-3 py-2">
                <CardLabel>Email</CardLabel>
                {e.email || "—"}
              </td>
              <td className="min-w-48 px-3 py-2 text-red-700">
                <CardLabel>Reason</CardLabel>
                {e.reason}
              </td>
            </tr>
          ))}
        </tbody>
      </ResponsiveTable>
    </div>
  );
}
