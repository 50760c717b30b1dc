// The block editor of an e-mail template of format "blocks" (docs/decisions/0043-templates-and-merge-tags.md):
// a card per block with its fields (block-fields.tsx), buttons to move, copy and delete it, a columns
// block's own lists of blocks, a picker to add a block, and Undo / Redo (also Ctrl or ⌘+Z and
// Ctrl or ⌘+Shift+Z or Ctrl+Y, except in a text field, where the browser's own undo applies). The
// blocks post with the surrounding form as JSON in one hidden input; the state lives in
// ~/lib/block-editor-state.
import { ArrowDown, ArrowUp, Copy, Plus, Redo2, Trash2, Undo2 } from "lucide-react";
import { useEffect, useId, useReducer, useRef, useState } from "react";
import { SelectField } from "~/components/forms";
import { BlockFields, CONTROL, type OnPatch, TOUCH } from "~/components/templates/block-fields";
import {
  BLOCK_TYPES,
  type BlockPath,
  COLUMN_BLOCK_TYPES,
  type ColumnBlockType,
  MAX_COLUMN_BLOCKS,
  type EditorAction,
  canAdd,
  canMove,
  editorReducer,
  initEditorState,
  newBlock,
} from "~/lib/block-editor-state";
import { BLOCK_LABELS, type Block, type BlockType, type ColumnBlock, MAX_BLOCKS } from "~/lib/template-blocks";

/** What gets the focus after an action: the control or card of `key` (a path, or a path and a control). */
type Act = (action: EditorAction, focus?: string[]) => void;

const keyOf = (path: BlockPath | readonly number[]) => path.join(".");
/** The path of the block `by` places from `path` in the same list. */
const shifted = (path: BlockPath, by: number): BlockPath =>
  path.length === 1 ? [path[0] + by] : [path[0], path[1], path[2] + by];

/** Whether keys typed into `target` belong to the browser's own editing (and its own undo). */
function isTextEntry(target: EventTarget): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement) return true;
  const notText = ["button", "checkbox", "radio", "submit", "reset", "range", "color", "file", "image"];
  return target instanceof HTMLInputElement && !notText.includes(target.type);
}

export function BlockEditor({
  name,
  initialBlocks,
  onChange,
}: {
  name: string;
  initialBlocks: Block[];
  onChange?: (blocks: Block[]) => void;
}) {
  const [state, dispatch] = useReducer(editorReducer, initialBlocks, initEditorState);
  const { blocks } = state;
  const rootRef = useRef<HTMLDivElement>(null);
  const focusNext = useRef<string[] | null>(null);
  const reported = useRef(blocks);
  const hintId = useId();

  useEffect(() => {
    if (reported.current === blocks) return;
    reported.current = blocks;
    onChange?.(blocks);
    // Keep the keyboard where the user works: on the block moved, copied or added, or near the one
    // deleted; never lost to the page when the button pressed went away or was disabled.
    const wanted = focusNext.current;
    focusNext.current = null;
    const root = rootRef.current;
    if (!root) return;
    for (const key of wanted ?? []) {
      const el = root.querySelector<HTMLElement>(`[data-focus-key="${key}"]`);
      if (el && !(el instanceof HTMLButtonElement && el.disabled)) {
        el.focus();
        return;
      }
    }
    const active = document.activeElement;
    if (!active || active === document.body || !root.contains(active) || (active as HTMLButtonElement).disabled)
      root.focus();
  }, [blocks, onChange]);

  const act: Act = (action, focus) => {
    focusNext.current = focus ?? null;
    dispatch(action);
  };

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    if (!(e.ctrlKey || e.metaKey) || e.altKey || isTextEntry(e.target)) return;
    const key = e.key.toLowerCase();
    if (key === "z" && !e.shiftKey) {
      e.preventDefault();
      act({ type: "undo" });
    } else if ((key === "z" && e.shiftKey) || (key === "y" && e.ctrlKey && !e.shiftKey)) {
      e.preventDefault();
      act({ type: "redo" });
    }
  };

  return (
    // The shortcuts are heard on the editor as a whole; each control in it is a native one.
    <div
      ref={rootRef}
      role="group"
      aria-label="Template blocks"
      aria-describedby={hintId}
      tabIndex={-1}
      onKeyDown={onKeyDown}
      className="space-y-4 outline-none"
    >
      <input type="hidden" name={name} value={JSON.stringify(blocks)} />
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          className={`btn-secondary ${TOUCH}`}
          disabled={state.past.length === 0}
          aria-keyshortcuts="Control+Z Meta+Z"
          onClick={() => act({ type: "undo" })}
        >
          <Undo2 className="h-4 w-4" aria-hidden="true" /> Undo
        </button>
        <button
          type="button"
          className={`btn-secondary ${TOUCH}`}
          disabled={state.future.length === 0}
          aria-keyshortcuts="Control+Shift+Z Meta+Shift+Z Control+Y"
          onClick={() => act({ type: "redo" })}
        >
          <Redo2 className="h-4 w-4" aria-hidden="true" /> Redo
        </button>
        <p id={hintId} className="hidden text-xs text-slate-500 sm:block">
          Ctrl or ⌘+Z undoes a change to the blocks, Ctrl or ⌘+Shift+Z redoes it (outside a text field).
        </p>
      </div>

      {blocks.length === 0 ? (
        <p className="card px-4 py-6 text-center text-sm text-slate-500">No blocks yet: add the first one below.</p>
      ) : (
        <BlockList list={blocks} at={[]} blocks={blocks} act={act} />
      )}

      <AddControl
        label="Add block"
        types={BLOCK_TYPES}
        blocks={blocks}
        focusKey="add"
        onAdd={(type) => act({ type: "add", blockType: type, at: [blocks.length] }, [keyOf([blocks.length])])}
      />
    </div>
  );
}

/** The blocks of one list: the top level (`at` empty) or a column (`at`: the columns block and column). */
function BlockList({
  list,
  at,
  blocks,
  act,
}: {
  list: readonly (Block | ColumnBlock)[];
  at: readonly [] | readonly [number, number];
  blocks: Block[];
  act: Act;
}) {
  return (
    <ol className="space-y-3">
      {list.map((block, i) => {
        const path: BlockPath = at.length === 0 ? [i] : [at[0], at[1], i];
        // Blocks have no ids: a card is its place, and every control in it shows the block's values.
        return (
          <li key={i}>
            <BlockCard block={block} path={path} blocks={blocks} act={act} />
          </li>
        );
      })}
    </ol>
  );
}

function BlockCard({
  block,
  path,
  blocks,
  act,
}: {
  block: Block | ColumnBlock;
  path: BlockPath;
  blocks: Block[];
  act: Act;
}) {
  const titleId = useId();
  const key = keyOf(path);
  const inner = path.length === 3;
  const index = path[path.length - 1];
  const parent = inner ? blocks[path[0]] : undefined;
  // Inside a column, a copy must also fit the column.
  const list = path.length === 3 && parent?.type === "columns" ? parent.columns[path[1]] : undefined;
  const onPatch: OnPatch = (patch, typing) =>
    act({ type: "update", path, patch, typing: typing ? { field: typing, at: Date.now() } : undefined });
  const move = (by: -1 | 1) => {
    const to = keyOf(shifted(path, by));
    const control = by < 0 ? "up" : "down";
    act({ type: "move", path, by }, [`${to}:${control}`, `${to}:${control === "up" ? "down" : "up"}`, to]);
  };
  const listKey = inner ? `${path[0]}.${path[1]}:add` : "add";
  const Title = inner ? "h4" : "h3";
  return (
    <div
      role="group"
      aria-labelledby={titleId}
      tabIndex={-1}
      data-focus-key={key}
      className={`${inner ? "rounded-lg border border-slate-200 bg-slate-50" : "card"} @container space-y-3 p-3 outline-none focus-visible:ring-2 focus-visible:ring-primary/40 sm:p-4`}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Title id={titleId} className="text-sm font-semibold text-slate-800">
          <span className="text-slate-400">{index + 1}.</span> {BLOCK_LABELS[block.type]}
        </Title>
        <div className="flex flex-wrap gap-1">
          <IconButton
            label="Move up"
            focusKey={`${key}:up`}
            disabled={!canMove(blocks, path, -1)}
            onClick={() => move(-1)}
          >
            <ArrowUp className="h-4 w-4" aria-hidden="true" />
          </IconButton>
          <IconButton
            label="Move down"
            focusKey={`${key}:down`}
            disabled={!canMove(blocks, path, 1)}
            onClick={() => move(1)}
          >
            <ArrowDown className="h-4 w-4" aria-hidden="true" />
          </IconButton>
          <IconButton
            label="Duplicate"
            focusKey={`${key}:copy`}
            disabled={!canAdd(blocks, block, list)}
            onClick={() => act({ type: "duplicate", path }, [keyOf(shifted(path, 1))])}
          >
            <Copy className="h-4 w-4" aria-hidden="true" />
          </IconButton>
          <IconButton
            label="Delete"
            focusKey={`${key}:delete`}
            danger
            onClick={() => act({ type: "delete", path }, [key, keyOf(shifted(path, -1)), listKey])}
          >
            <Trash2 className="h-4 w-4" aria-hidden="true" />
          </IconButton>
        </div>
      </div>
      {block.type === "columns" && path.length === 1 ? (
        <ColumnsFields block={block} index={path[0]} blocks={blocks} act={act} />
      ) : block.type !== "columns" ? (
        <BlockFields block={block} onPatch={onPatch} />
      ) : null}
    </div>
  );
}

function IconButton({
  label,
  focusKey,
  disabled,
  danger,
  onClick,
  children,
}: {
  label: string;
  focusKey: string;
  disabled?: boolean;
  danger?: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      className={`btn-ghost ${TOUCH} ${danger ? "text-red-600 hover:bg-red-50" : ""}`}
      aria-label={label}
      title={label}
      data-focus-key={focusKey}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

const COLUMN_COUNTS = [
  { value: "2", label: "2 columns" },
  { value: "3", label: "3 columns" },
];

/** A columns block: how many columns, and each column's own blocks with its own picker. */
function ColumnsFields({
  block,
  index,
  blocks,
  act,
}: {
  block: Extract<Block, { type: "columns" }>;
  index: number;
  blocks: Block[];
  act: Act;
}) {
  const count = block.columns.length;
  return (
    <div className="space-y-3">
      <div className="sm:w-1/2">
        <SelectField
          label="Number of columns"
          options={COLUMN_COUNTS}
          hint={
            count === 3
              ? "With 2, the blocks of column 3 join column 2"
              : "Side by side on a computer, one under the other on a phone"
          }
          selectProps={{
            className: CONTROL,
            value: String(count),
            onChange: (e) => {
              const n = Number(e.currentTarget.value);
              if (n === 2 || n === 3) act({ type: "columnCount", index, count: n });
            },
          }}
        />
      </div>
      <div className={`grid gap-3 ${count === 3 ? "lg:grid-cols-3" : "md:grid-cols-2"}`}>
        {block.columns.map((column, c) => (
          <ColumnEditor key={c} column={column} index={index} c={c} blocks={blocks} act={act} />
        ))}
      </div>
    </div>
  );
}

function ColumnEditor({
  column,
  index,
  c,
  blocks,
  act,
}: {
  column: ColumnBlock[];
  index: number;
  c: number;
  blocks: Block[];
  act: Act;
}) {
  const titleId = useId();
  return (
    <div
      role="group"
      aria-labelledby={titleId}
      className="min-w-0 space-y-3 rounded-lg border border-dashed border-slate-300 p-2 sm:p-3"
    >
      <p id={titleId} className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        Column {c + 1}
      </p>
      {column.length === 0 ? (
        <p className="text-sm text-slate-500">Nothing in this column yet.</p>
      ) : (
        <BlockList list={column} at={[index, c]} blocks={blocks} act={act} />
      )}
      <AddControl
        label={`Add to column ${c + 1}`}
        types={COLUMN_BLOCK_TYPES}
        blocks={blocks}
        column={column}
        focusKey={`${index}.${c}:add`}
        onAdd={(type: ColumnBlockType) =>
          act({ type: "add", blockType: type, at: [index, c, column.length] }, [keyOf([index, c, column.length])])
        }
      />
    </div>
  );
}

/** A picker of a block type and its Add button; the type stays chosen for the next one. */
function AddControl<T extends BlockType>({
  label,
  types,
  blocks,
  column,
  focusKey,
  onAdd,
}: {
  label: string;
  types: readonly T[];
  blocks: Block[];
  column?: readonly ColumnBlock[];
  focusKey: string;
  onAdd: (type: T) => void;
}) {
  const [chosen, setChosen] = useState<T>(types[0]);
  const fits = canAdd(blocks, newBlock(chosen), column);
  const full =
    column && column.length >= MAX_COLUMN_BLOCKS
      ? `A column holds at most ${MAX_COLUMN_BLOCKS} blocks`
      : `A template holds at most ${MAX_BLOCKS} blocks, those in columns included`;
  return (
    <div className="flex flex-wrap items-end gap-2">
      <SelectField
        className="min-w-0 flex-1 sm:max-w-xs"
        label={label}
        hint={fits ? undefined : full}
        options={types.map((t) => ({ value: t, label: BLOCK_LABELS[t] }))}
        selectProps={
          {
            className: CONTROL,
            value: chosen,
            "data-focus-key": focusKey,
            onChange: (e) => {
              const type = types.find((t) => t === e.currentTarget.value);
              if (type) setChosen(type);
            },
          } as React.SelectHTMLAttributes<HTMLSelectElement>
        }
      />
      <button
        type="button"
        className={`btn-secondary ${TOUCH}`}
        disabled={!fits}
        // Several Add buttons are on the page (the template's and each column's): the name says which.
        aria-label={`Add ${BLOCK_LABELS[chosen]}${label.startsWith("Add to ") ? ` ${label.slice(4)}` : ""}`}
        onClick={() => onAdd(chosen)}
      >
        <Plus className="h-4 w-4" aria-hidden="true" /> Add
      </button>
    </div>
  );
}
