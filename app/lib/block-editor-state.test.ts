// The block editor's state: adding, changing, moving, copying and deleting blocks at the top level
// and inside columns, undo and redo (a burst of typing one step, at most HISTORY_LIMIT steps), and
// the blocks newBlock() gives. The input is frozen, so a reducer that changed it in place would throw.
import { describe, expect, it } from "vitest";
import {
  BLOCK_TYPES,
  COLUMN_BLOCK_TYPES,
  type EditorAction,
  type EditorState,
  HISTORY_LIMIT,
  MAX_COLUMN_BLOCKS,
  TYPING_BURST_MS,
  blockAt,
  canAdd,
  canMove,
  countBlocks,
  editorReducer,
  initEditorState,
  newBlock,
} from "~/lib/block-editor-state";
import {
  BLOCK_LABELS,
  type Block,
  BlockSchema,
  BlocksSchema,
  type ColumnBlock,
  ColumnBlockSchema,
  MAX_BLOCKS,
} from "~/lib/template-blocks";

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const heading = (text: string): Block => ({ type: "heading", text, level: 1, align: "left" });
const text = (html: string): ColumnBlock => ({ type: "text", html, align: "left" });
const columns = (...cols: ColumnBlock[][]): Block => ({ type: "columns", columns: cols });

function start(blocks: Block[]): EditorState {
  return initEditorState(deepFreeze(blocks));
}
function run(state: EditorState, ...actions: EditorAction[]): EditorState {
  return actions.reduce((s, a) => deepFreeze(editorReducer(s, a)), deepFreeze(state));
}
const texts = (blocks: readonly (Block | ColumnBlock)[]) =>
  blocks.map((b) => (b.type === "heading" ? b.text : b.type === "text" ? b.html : b.type));

const base = () => start([heading("A"), heading("B"), columns([text("x"), text("y")], [text("z")]), heading("C")]);

describe("newBlock", () => {
  it("offers every block type, in BLOCK_LABELS", () => {
    expect([...BLOCK_TYPES].sort()).toEqual(Object.keys(BLOCK_LABELS).sort());
  });

  it.each(BLOCK_TYPES)("gives a %s block that is valid and has every field filled", (type) => {
    const block = newBlock(type);
    expect(block.type).toBe(type);
    // The schema's defaults would add any field left out: parsing changes nothing.
    expect(BlockSchema.parse(block)).toEqual(block);
  });

  it("gives the column types exactly those a column may hold", () => {
    for (const type of BLOCK_TYPES) {
      expect(ColumnBlockSchema.safeParse(newBlock(type)).success, type).toBe(
        COLUMN_BLOCK_TYPES.includes(type as never),
      );
    }
  });

  it("gives a new object each time", () => {
    const a = newBlock("columns");
    const b = newBlock("columns");
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    expect(a.columns[0]).not.toBe(b.columns[0]);
    expect(a.columns[0][0]).not.toBe(b.columns[0][0]);
    const s = newBlock("social");
    expect(s.links).not.toBe(newBlock("social").links);
  });

  it("gives columns of 2 with something in each, and sensible values", () => {
    expect(newBlock("columns").columns).toHaveLength(2);
    expect(newBlock("columns").columns.every((c) => c.length > 0)).toBe(true);
    expect(newBlock("spacer").height).toBe(24);
    expect(newBlock("image").width).toBe(0);
    expect(newBlock("social").links).toHaveLength(1);
    expect(newBlock("heading").text).not.toBe("");
    expect(newBlock("button").label).not.toBe("");
  });
});

describe("adding", () => {
  it("adds a block at the top level at the start, the middle and the end", () => {
    let s = run(base(), { type: "add", blockType: "divider", at: [0] });
    expect(texts(s.blocks)).toEqual(["divider", "A", "B", "columns", "C"]);
    s = run(s, { type: "add", blockType: "spacer", at: [2] });
    expect(texts(s.blocks)).toEqual(["divider", "A", "spacer", "B", "columns", "C"]);
    s = run(s, { type: "add", blockType: "footer", at: [6] });
    expect(texts(s.blocks)).toEqual(["divider", "A", "spacer", "B", "columns", "C", "footer"]);
    expect(s.blocks[6]).toEqual(newBlock("footer"));
    expect(s.past).toHaveLength(3);
  });

  it("adds a block inside a column", () => {
    const s = run(base(), { type: "add", blockType: "button", at: [2, 1, 1] });
    const cols = s.blocks[2].type === "columns" ? s.blocks[2].columns : [];
    expect(texts(cols[0])).toEqual(["x", "y"]);
    expect(texts(cols[1])).toEqual(["z", "button"]);
    expect(texts(s.blocks)).toEqual(["A", "B", "columns", "C"]);
    expect(s.past).toHaveLength(1);
  });

  it("refuses a place that is not there, and a type a column cannot hold", () => {
    const s = base();
    const refused: EditorAction[] = [
      { type: "add", blockType: "divider", at: [5] },
      { type: "add", blockType: "divider", at: [-1] },
      { type: "add", blockType: "text", at: [0, 0, 0] }, // block 0 is not columns
      { type: "add", blockType: "text", at: [2, 2, 0] }, // no third column
      { type: "add", blockType: "text", at: [2, 0, 3] },
      { type: "add", blockType: "social", at: [2, 0, 0] } as unknown as EditorAction,
    ];
    for (const action of refused) expect(run(s, action), JSON.stringify(action)).toBe(s);
  });

  it("refuses a block more than a column or the template holds", () => {
    const full = start([
      columns(
        Array.from({ length: MAX_COLUMN_BLOCKS }, (_, i) => text(`${i}`)),
        [],
      ),
    ]);
    expect(run(full, { type: "add", blockType: "text", at: [0, 0, 0] })).toBe(full);
    expect(run(full, { type: "add", blockType: "text", at: [0, 1, 0] })).not.toBe(full);
    expect(canAdd(full.blocks, newBlock("text"), (full.blocks[0] as { columns: ColumnBlock[][] }).columns[0])).toBe(
      false,
    );

    const most = start(Array.from({ length: MAX_BLOCKS }, (_, i) => heading(`${i}`)));
    expect(run(most, { type: "add", blockType: "divider", at: [0] })).toBe(most);
    expect(run(most, { type: "duplicate", path: [0] })).toBe(most);
    expect(canAdd(most.blocks, newBlock("divider"))).toBe(false);
    const fewer = run(most, { type: "delete", path: [0] });
    expect(canAdd(fewer.blocks, newBlock("divider"))).toBe(true);
    // A columns block counts itself and what its columns hold.
    expect(canAdd(fewer.blocks, newBlock("columns"))).toBe(false);
    expect(run(fewer, { type: "add", blockType: "columns", at: [0] })).toBe(fewer);
    expect(countBlocks(base().blocks)).toBe(7);
  });
});

describe("updating", () => {
  it("changes the fields of a block at the top level and keeps the others", () => {
    const before = base();
    const s = run(before, { type: "update", path: [1], patch: { text: "Big B", level: 3 } });
    expect(s.blocks[1]).toEqual({ type: "heading", text: "Big B", level: 3, align: "left" });
    expect(s.blocks[0]).toBe(before.blocks[0]);
    expect(s.past).toEqual([before.blocks]);
  });

  it("changes the fields of a block inside a column", () => {
    const s = run(base(), { type: "update", path: [2, 0, 1], patch: { html: "<p>why</p>", align: "right" } });
    expect(blockAt(s.blocks, [2, 0, 1])).toEqual({ type: "text", html: "<p>why</p>", align: "right" });
    expect(blockAt(s.blocks, [2, 0, 0])).toEqual(text("x"));
  });

  it("never changes a block's type nor adds a field it does not have", () => {
    const s = run(base(), {
      type: "update",
      path: [0],
      patch: { type: "divider", html: "<p>no</p>", text: "yes" } as never,
    });
    expect(s.blocks[0]).toEqual({ type: "heading", text: "yes", level: 1, align: "left" });
  });

  it("refuses a path that is not there", () => {
    const s = base();
    for (const path of [[9], [0, 0, 0], [2, 5, 0], [2, 0, 9]] as const) {
      expect(run(s, { type: "update", path, patch: { text: "t" } })).toBe(s);
    }
  });

  it("changes the number of columns, keeping every block", () => {
    let s = run(base(), { type: "columnCount", index: 2, count: 3 });
    expect(s.blocks[2]).toEqual(columns([text("x"), text("y")], [text("z")], []));
    s = run(s, { type: "add", blockType: "divider", at: [2, 2, 0] }, { type: "columnCount", index: 2, count: 2 });
    expect(s.blocks[2]).toEqual(columns([text("x"), text("y")], [text("z"), { type: "divider" }]));
    expect(run(s, { type: "columnCount", index: 2, count: 2 })).toBe(s);
    expect(run(s, { type: "columnCount", index: 0, count: 3 })).toBe(s);
  });
});

describe("moving", () => {
  it("moves a block up and down at the top level", () => {
    let s = run(base(), { type: "move", path: [1], by: -1 });
    expect(texts(s.blocks)).toEqual(["B", "A", "columns", "C"]);
    s = run(s, { type: "move", path: [2], by: 1 });
    expect(texts(s.blocks)).toEqual(["B", "A", "C", "columns"]);
    expect(s.past).toHaveLength(2);
  });

  it("moves a block up and down inside its column", () => {
    let s = run(base(), { type: "move", path: [2, 0, 0], by: 1 });
    expect(texts(blockCols(s)[0])).toEqual(["y", "x"]);
    s = run(s, { type: "move", path: [2, 0, 1], by: -1 });
    expect(texts(blockCols(s)[0])).toEqual(["x", "y"]);
    expect(texts(s.blocks)).toEqual(["A", "B", "columns", "C"]);
  });

  it("does nothing at an edge, and canMove says so", () => {
    const s = base();
    expect(run(s, { type: "move", path: [0], by: -1 })).toBe(s);
    expect(run(s, { type: "move", path: [3], by: 1 })).toBe(s);
    expect(run(s, { type: "move", path: [2, 1, 0], by: 1 })).toBe(s);
    expect(run(s, { type: "move", path: [2, 0, 0], by: -1 })).toBe(s);
    expect(canMove(s.blocks, [0], -1)).toBe(false);
    expect(canMove(s.blocks, [0], 1)).toBe(true);
    expect(canMove(s.blocks, [3], 1)).toBe(false);
    expect(canMove(s.blocks, [3], -1)).toBe(true);
    expect(canMove(s.blocks, [2, 0, 0], 1)).toBe(true);
    expect(canMove(s.blocks, [2, 0, 1], 1)).toBe(false);
    expect(canMove(s.blocks, [2, 1, 0], -1)).toBe(false);
    expect(canMove(s.blocks, [9], -1)).toBe(false);
  });
});

function blockCols(s: EditorState, index = 2): ColumnBlock[][] {
  const block = s.blocks[index];
  if (block.type !== "columns") throw new Error(`block ${index} is not columns`);
  return block.columns;
}

describe("duplicating and deleting", () => {
  it("puts a copy right after the block, not shared with it", () => {
    let s = run(base(), { type: "duplicate", path: [2] });
    expect(texts(s.blocks)).toEqual(["A", "B", "columns", "columns", "C"]);
    expect(s.blocks[3]).toEqual(s.blocks[2]);
    s = run(s, { type: "update", path: [3, 0, 0], patch: { html: "copy" } });
    expect(texts(blockCols(s, 2)[0])).toEqual(["x", "y"]);
    expect(texts(blockCols(s, 3)[0])).toEqual(["copy", "y"]);
  });

  it("copies a block inside its column", () => {
    const s = run(base(), { type: "duplicate", path: [2, 0, 0] });
    expect(texts(blockCols(s)[0])).toEqual(["x", "x", "y"]);
    expect(blockCols(s)[0][1]).not.toBe(blockCols(s)[0][0]);
  });

  it("deletes a block at the top level and inside a column", () => {
    let s = run(base(), { type: "delete", path: [0] });
    expect(texts(s.blocks)).toEqual(["B", "columns", "C"]);
    s = run(s, { type: "delete", path: [1, 0, 1] });
    expect(texts(blockCols(s, 1)[0])).toEqual(["x"]);
    s = run(s, { type: "delete", path: [1, 1, 0] });
    expect(blockCols(s, 1)[1]).toEqual([]);
    expect(run(s, { type: "delete", path: [1, 1, 0] })).toBe(s);
    expect(run(s, { type: "delete", path: [7] })).toBe(s);
    expect(run(s, { type: "duplicate", path: [7] })).toBe(s);
  });

  it("keeps a template BlocksSchema takes", () => {
    const s = run(
      start([]),
      ...BLOCK_TYPES.map((blockType, i): EditorAction => ({ type: "add", blockType, at: [i] })),
      ...COLUMN_BLOCK_TYPES.map((blockType): EditorAction => ({ type: "add", blockType, at: [8, 1, 0] })),
      { type: "duplicate", path: [8] },
      { type: "move", path: [8, 1, 2], by: 1 },
    );
    expect(BlocksSchema.safeParse(s.blocks).success).toBe(true);
  });
});

describe("undo and redo", () => {
  it("undoes and redoes each step in order", () => {
    const s0 = base();
    const s1 = run(s0, { type: "add", blockType: "divider", at: [0] });
    const s2 = run(s1, { type: "move", path: [1], by: 1 });
    const s3 = run(s2, { type: "delete", path: [3] });
    let s = run(s3, { type: "undo" });
    expect(s.blocks).toBe(s2.blocks);
    s = run(s, { type: "undo" }, { type: "undo" });
    expect(s.blocks).toBe(s0.blocks);
    expect(s.past).toEqual([]);
    expect(run(s, { type: "undo" })).toBe(s);
    s = run(s, { type: "redo" });
    expect(s.blocks).toBe(s1.blocks);
    s = run(s, { type: "redo" }, { type: "redo" });
    expect(s.blocks).toBe(s3.blocks);
    expect(run(s, { type: "redo" })).toBe(s);
  });

  it("drops what could be redone when a new step is made", () => {
    let s = run(base(), { type: "delete", path: [0] }, { type: "undo" });
    expect(s.future).toHaveLength(1);
    s = run(s, { type: "update", path: [0], patch: { text: "new" } });
    expect(s.future).toEqual([]);
    expect(run(s, { type: "redo" })).toBe(s);
  });

  it("keeps at most HISTORY_LIMIT steps", () => {
    let s = start([heading("0")]);
    for (let i = 1; i <= HISTORY_LIMIT + 50; i++) s = run(s, { type: "update", path: [0], patch: { text: `${i}` } });
    expect(s.past).toHaveLength(HISTORY_LIMIT);
    for (let i = 0; i < HISTORY_LIMIT + 10; i++) s = run(s, { type: "undo" });
    expect(texts(s.blocks)).toEqual(["50"]);
    expect(s.future).toHaveLength(HISTORY_LIMIT);
  });
});

describe("a burst of typing", () => {
  const type = (
    path: readonly [number] | readonly [number, number, number],
    value: string,
    field: string,
    at: number,
  ) => ({ type: "update", path, patch: { text: value, html: value }, typing: { field, at } }) as EditorAction;

  it("is one step to undo", () => {
    let s = run(base(), type([0], "A1", "text", 1000), type([0], "A12", "text", 1200), type([0], "A123", "text", 1900));
    expect(texts(s.blocks)[0]).toBe("A123");
    expect(s.past).toHaveLength(1);
    s = run(s, { type: "undo" });
    expect(s.blocks).toEqual(base().blocks);
    s = run(s, { type: "redo" });
    expect(texts(s.blocks)[0]).toBe("A123");
  });

  it("ends with a pause, another field, another block or another action", () => {
    const pause = run(base(), type([0], "A1", "text", 0), type([0], "A12", "text", TYPING_BURST_MS + 1));
    expect(pause.past).toHaveLength(2);
    const field = run(base(), type([0], "A1", "text", 0), type([0], "A12", "alt", 10));
    expect(field.past).toHaveLength(2);
    const block = run(base(), type([0], "A1", "text", 0), type([1], "B1", "text", 10));
    expect(block.past).toHaveLength(2);
    const inner = run(base(), type([2, 0, 0], "x1", "html", 0), type([2, 0, 1], "y1", "html", 10));
    expect(inner.past).toHaveLength(2);
    const between = run(
      base(),
      type([0], "A1", "text", 0),
      { type: "update", path: [0], patch: { level: 2 } },
      type([0], "A12", "text", 10),
    );
    expect(between.past).toHaveLength(3);
    const undone = run(base(), type([0], "A1", "text", 0), { type: "undo" }, type([0], "A12", "text", 10));
    expect(undone.past).toHaveLength(1);
    expect(texts(run(undone, { type: "undo" }).blocks)[0]).toBe("A");
  });

  it("merges keystrokes inside a column too", () => {
    const s = run(base(), type([2, 1, 0], "z1", "html", 0), type([2, 1, 0], "z12", "html", 500));
    expect(s.past).toHaveLength(1);
    expect(texts(blockCols(s)[1])).toEqual(["z12"]);
  });
});
