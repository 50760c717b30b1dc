// The state of the block editor of e-mail templates (app/components/templates/block-editor.tsx):
// the blocks, and the steps to undo and redo. Pure and isomorphic, so the server renders the editor
// from the same state the browser edits, and the tests drive it without a DOM.
import {
  type Block,
  BlockSchema,
  type BlockType,
  type ColumnBlock,
  ColumnBlockSchema,
  MAX_BLOCKS,
  MAX_COLUMN_BLOCKS,
} from "~/lib/template-blocks";

/** The block types in the order the editor offers them: the schema's. */
export const BLOCK_TYPES: readonly BlockType[] = BlockSchema.options.map((o) => o.shape.type.value);
export type ColumnBlockType = ColumnBlock["type"];
/** What a column of a columns block may hold: the schema's. */
export const COLUMN_BLOCK_TYPES: readonly ColumnBlockType[] = ColumnBlockSchema.options.map((o) => o.shape.type.value);
export { MAX_COLUMN_BLOCKS };
/** How many steps Undo goes back at most. */
export const HISTORY_LIMIT = 100;
/** Keystrokes in one field closer together than this are one step to undo. */
export const TYPING_BURST_MS = 1_000;

export const isColumnBlockType = (type: BlockType): type is ColumnBlockType =>
  (COLUMN_BLOCK_TYPES as readonly BlockType[]).includes(type);

type BlockOf<T extends BlockType> = Extract<Block, { type: T }>;

const EXAMPLE = "https://example.com";
const NEW_BLOCKS: { [T in BlockType]: () => BlockOf<T> } = {
  heading: () => ({ type: "heading", text: "A heading", level: 2, align: "left" }),
  text: () => ({ type: "text", html: "<p>Write your text here.</p>", align: "left" }),
  // Addresses at example.com: the check before launch names them until the author puts her own.
  image: () => ({ type: "image", src: `${EXAMPLE}/image.jpg`, alt: "", href: "", width: 0, align: "center" }),
  button: () => ({ type: "button", label: "Shop now", href: EXAMPLE, align: "center" }),
  divider: () => ({ type: "divider" }),
  spacer: () => ({ type: "spacer", height: 24 }),
  social: () => ({ type: "social", links: [{ network: "website", url: EXAMPLE }], align: "center" }),
  footer: () => ({ type: "footer", text: "" }),
  columns: () => ({ type: "columns", columns: [[NEW_BLOCKS.text()], [NEW_BLOCKS.text()]] }),
};

/** A new block of a type, with every field filled (a valid block, as BlockSchema reads it). */
export function newBlock<T extends BlockType>(type: T): BlockOf<T> {
  return NEW_BLOCKS[type]();
}

/** The blocks a list holds, counting those inside columns as BlocksSchema does. */
export function countBlocks(blocks: readonly Block[]): number {
  let n = 0;
  for (const block of blocks) n += 1 + (block.type === "columns" ? block.columns.flat().length : 0);
  return n;
}

/**
 * Where a block stands: `[index]` at the top level, `[index, column, inner]` inside column
 * `column` of the columns block at `index`. For an insertion, the last number is where it goes.
 */
export type BlockPath = readonly [number] | readonly [number, number, number];

/** Some fields of one block, with their new values. */
export type BlockPatch = Block extends infer B ? (B extends Block ? Partial<Omit<B, "type">> : never) : never;

export type EditorState = {
  blocks: Block[];
  /** The blocks before each step, the most recent last (at most HISTORY_LIMIT). */
  past: Block[][];
  /** The blocks each undone step had, the next to redo last. */
  future: Block[][];
  /** The field typed into last and when, while a burst of typing may still go on. */
  typing?: { key: string; at: number };
};

export type EditorAction =
  | { type: "add"; blockType: BlockType; at: readonly [number] }
  | { type: "add"; blockType: ColumnBlockType; at: readonly [number, number, number] }
  | {
      type: "update";
      path: BlockPath;
      patch: BlockPatch;
      /** Set by a text the user types: steps in the same field within TYPING_BURST_MS are one. */
      typing?: { field: string; at: number };
    }
  /** A columns block's number of columns; the blocks of a column that goes join the one before. */
  | { type: "columnCount"; index: number; count: 2 | 3 }
  | { type: "move"; path: BlockPath; by: -1 | 1 }
  | { type: "duplicate"; path: BlockPath }
  | { type: "delete"; path: BlockPath }
  | { type: "undo" }
  | { type: "redo" };

export function initEditorState(blocks: readonly Block[]): EditorState {
  return { blocks: [...blocks], past: [], future: [] };
}

const clone = <T>(value: T): T => structuredClone(value);

/** A step that changes the blocks: the old ones go to the past, the future is dropped. */
function step(state: EditorState, blocks: Block[], typing?: EditorState["typing"]): EditorState {
  const past = [...state.past, state.blocks];
  if (past.length > HISTORY_LIMIT) past.splice(0, past.length - HISTORY_LIMIT);
  return { blocks, past, future: [], ...(typing ? { typing } : {}) };
}

/** The list a path's block is in, changed by `change` (which gives null to refuse), or null. */
function changeList(
  blocks: Block[],
  path: BlockPath,
  change: (list: (Block | ColumnBlock)[], at: number) => (Block | ColumnBlock)[] | null,
): Block[] | null {
  if (path.length === 1) {
    const list = change(blocks, path[0]);
    return list as Block[] | null;
  }
  const [index, column, inner] = path;
  const parent = blocks[index];
  if (parent?.type !== "columns" || !parent.columns[column]) return null;
  const list = change(parent.columns[column], inner);
  if (!list) return null;
  if (list.some((b) => !isColumnBlockType(b.type))) return null;
  if (list.length > MAX_COLUMN_BLOCKS && list.length > parent.columns[column].length) return null;
  const columns = parent.columns.map((c, i) => (i === column ? (list as ColumnBlock[]) : c));
  return blocks.map((b, i) => (i === index ? { ...parent, columns } : b));
}

const within = (list: readonly unknown[], at: number) => Number.isInteger(at) && at >= 0 && at < list.length;

/** A block with some fields changed: only fields the block has, and never its type. */
function patched<B extends Block | ColumnBlock>(block: B, patch: BlockPatch): B {
  const next: Record<string, unknown> = { ...block };
  for (const [key, value] of Object.entries(patch)) {
    if (key !== "type" && key in block && value !== undefined) next[key] = value;
  }
  return next as B;
}

function setColumnCount(blocks: Block[], index: number, count: 2 | 3): Block[] | null {
  const parent = blocks[index];
  if (parent?.type !== "columns" || parent.columns.length === count) return null;
  let columns: ColumnBlock[][];
  if (count > parent.columns.length) {
    columns = [...parent.columns, ...Array.from({ length: count - parent.columns.length }, () => [])];
  } else {
    // Nothing is lost: the blocks of the columns that go are added to the last one kept.
    const kept = parent.columns.slice(0, count);
    const moved = parent.columns.slice(count).flat();
    columns = kept.map((c, i) => (i === count - 1 ? [...c, ...moved] : c));
  }
  return blocks.map((b, i) => (i === index ? { ...parent, columns } : b));
}

/** The editor's reducer. An action that cannot apply (an edge, a bad path) gives the same state back. */
export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  const { blocks } = state;
  switch (action.type) {
    case "undo": {
      const previous = state.past[state.past.length - 1];
      if (!previous) return state;
      return { blocks: previous, past: state.past.slice(0, -1), future: [...state.future, blocks] };
    }
    case "redo": {
      const next = state.future[state.future.length - 1];
      if (!next) return state;
      return { blocks: next, past: [...state.past, blocks], future: state.future.slice(0, -1) };
    }
    case "add": {
      const block = newBlock(action.blockType);
      if (countBlocks(blocks) + countBlocks([block]) > MAX_BLOCKS) return state;
      const next = changeList(blocks, action.at, (list, at) =>
        at >= 0 && at <= list.length && Number.isInteger(at) ? [...list.slice(0, at), block, ...list.slice(at)] : null,
      );
      return next ? step(state, next) : state;
    }
    case "update": {
      const next = changeList(blocks, action.path, (list, at) => {
        if (!within(list, at)) return null;
        const block = patched(list[at], action.patch);
        return list.map((b, i) => (i === at ? block : b));
      });
      if (!next) return state;
      if (!action.typing) return step(state, next);
      const typing = { key: `${action.path.join(".")}:${action.typing.field}`, at: action.typing.at };
      const last = state.typing;
      const sameBurst =
        last !== undefined &&
        last.key === typing.key &&
        typing.at >= last.at &&
        typing.at - last.at <= TYPING_BURST_MS &&
        state.past.length > 0;
      // More of the same burst: the step that began it already holds the blocks from before it.
      if (sameBurst) return { blocks: next, past: state.past, future: [], typing };
      return step(state, next, typing);
    }
    case "columnCount": {
      const next = setColumnCount(blocks, action.index, action.count);
      return next ? step(state, next) : state;
    }
    case "move": {
      const next = changeList(blocks, action.path, (list, at) => {
        const to = at + action.by;
        if (!within(list, at) || !within(list, to)) return null;
        const moved = [...list];
        [moved[at], moved[to]] = [moved[to], moved[at]];
        return moved;
      });
      return next ? step(state, next) : state;
    }
    case "duplicate": {
      const source = blockAt(blocks, action.path);
      if (!source || countBlocks(blocks) + countBlocks([source as Block]) > MAX_BLOCKS) return state;
      const next = changeList(blocks, action.path, (list, at) => [
        ...list.slice(0, at + 1),
        clone(source),
        ...list.slice(at + 1),
      ]);
      return next ? step(state, next) : state;
    }
    case "delete": {
      const next = changeList(blocks, action.path, (list, at) =>
        within(list, at) ? list.filter((_, i) => i !== at) : null,
      );
      return next ? step(state, next) : state;
    }
  }
}

/** The block at a path, or undefined. */
export function blockAt(blocks: readonly Block[], path: BlockPath): Block | ColumnBlock | undefined {
  if (path.length === 1) return within(blocks, path[0]) ? blocks[path[0]] : undefined;
  const [index, column, inner] = path;
  const parent = blocks[index];
  if (parent?.type !== "columns") return undefined;
  const list = parent.columns[column];
  return list && within(list, inner) ? list[inner] : undefined;
}

/** Whether a block could move one place up (-1) or down (1) in its list. */
export function canMove(blocks: readonly Block[], path: BlockPath, by: -1 | 1): boolean {
  const last = path[path.length - 1] + by;
  const moved: BlockPath = path.length === 1 ? [last] : [path[0], path[1], last];
  return blockAt(blocks, path) !== undefined && blockAt(blocks, moved) !== undefined;
}

/** Whether one more block (or a copy of `like`) still fits in the template and, inside a column, the column. */
export function canAdd(blocks: readonly Block[], like: Block | ColumnBlock, column?: readonly ColumnBlock[]): boolean {
  if (column && column.length >= MAX_COLUMN_BLOCKS) return false;
  return countBlocks(blocks) + countBlocks([like as Block]) <= MAX_BLOCKS;
}
