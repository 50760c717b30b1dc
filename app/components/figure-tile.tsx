// One figure of a campaign's Revenue and Opens and clicks cards: its label over its value (a long
// one wraps inside the tile), and a note under it when the value needs one.

export type FigureTileProps = { label: string; value: string; note?: string; testId: string };

export function FigureTile({ label, value, note, testId }: FigureTileProps) {
  return (
    <div className="min-w-0 rounded-lg border border-slate-100 bg-slate-50 p-3">
      <p className="text-xs uppercase tracking-wide text-slate-500">{label}</p>
      <p className="break-words text-xl font-semibold text-slate-900" data-testid={testId}>
        {value}
      </p>
      {note ? <p className="text-xs text-slate-500">{note}</p> : null}
    </div>
  );
}
