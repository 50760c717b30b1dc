// The actions cell of a list row (view, edit, delete and the like, as icon buttons), the same on
// every list: one line of icons on a wide screen, two to a line on the right of the card on a
// phone (ACTIONS_CELL, app/components/responsive-table.tsx). It is the cheap kind of row
// (app/components/fast-rows.tsx): plain anchors and icons drawn from the page's sprite, so the page
// renders <RowActionSprite /> once and hands clicks on its rows to Remix with useDelegatedLinks()
// on the <tbody>. Without JavaScript they are plain links.
import { Eye, Megaphone, Pencil, Trash2 } from "lucide-react";
import { IconSprite, SpriteIcon } from "~/components/fast-rows";
import { ACTIONS_CELL } from "~/components/responsive-table";

/** The icons a row action may show, drawn once per page by <RowActionSprite />. */
export const ROW_ACTION_ICONS = { view: Eye, edit: Pencil, campaign: Megaphone, delete: Trash2 };

export type RowAction = {
  icon: keyof typeof ROW_ACTION_ICONS;
  /** Where the action goes (a delete opens the page's confirmation: `?delete=<id>`). */
  href: string;
  /** What a screen reader says, naming the row: "Delete Kavya Menon". */
  label: string;
  /** The tooltip. */
  title: string;
};

/** The symbols of the page's row actions; render it once, outside the table. */
export function RowActionSprite() {
  return <IconSprite icons={ROW_ACTION_ICONS} />;
}

/**
 * The row's actions cell. A delete is drawn in red and keeps the scroll position (its dialog opens
 * over the list); an action that does not apply to the row is left out (pass null or false).
 */
export function RowActions({
  actions,
  className = "px-4 py-3",
}: {
  actions: readonly (RowAction | null | false)[];
  className?: string;
}) {
  return (
    <td className={`whitespace-nowrap ${className}`} {...ACTIONS_CELL}>
      <div className="flex justify-end gap-1">
        {actions.map((action) =>
          action ? (
            <a
              key={action.icon}
              href={action.href}
              className={action.icon === "delete" ? "btn-ghost text-red-600 hover:bg-red-50" : "btn-ghost"}
              aria-label={action.label}
              title={action.title}
              data-prevent-scroll-reset={action.icon === "delete" ? "" : undefined}
            >
              <SpriteIcon id={action.icon} />
            </a>
          ) : null,
        )}
      </div>
    </td>
  );
}
