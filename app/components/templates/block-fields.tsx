// The fields of one block in the block editor (block-editor.tsx), by its type: labelled inputs
// drawn with the product's own Field, SelectField and TextareaField (~/components/forms), which tie
// each label to its control with useId. They post nothing themselves (no name): the editor's hidden
// input carries the blocks. Texts are type="text", never type="url", so a merge tag in an address
// does not stop the form from posting. Their layout follows the width of the card (a container),
// which inside a column is narrow even on a computer.
import { Plus, Trash2 } from "lucide-react";
import { useEffect, useId, useState } from "react";
import { Field, SelectField, TextareaField } from "~/components/forms";
import { ImageUploadButton } from "~/components/templates/image-upload";
import { blockWidthOf } from "~/lib/images";
import type { BlockPatch } from "~/lib/block-editor-state";
import {
  ALIGNMENTS,
  type Block,
  type ColumnBlock,
  SOCIAL_LABELS,
  SOCIAL_NETWORKS,
  type SocialNetwork,
} from "~/lib/template-blocks";

/** Changes some fields of the block; `typing` names the field a keystroke changed (one undo step per burst). */
export type OnPatch = (patch: BlockPatch, typing?: string) => void;

/** The touch size of a small button: 44 px on a phone, smaller from sm up. */
export const TOUCH = "min-h-11 min-w-11 sm:min-h-9 sm:min-w-9";
/** An input or a select, 44 px tall on a phone. */
export const CONTROL = "input min-h-11 sm:min-h-0";

const ALIGN_OPTIONS = ALIGNMENTS.map((a) => ({ value: a, label: a[0].toUpperCase() + a.slice(1) }));
const NETWORK_OPTIONS = SOCIAL_NETWORKS.map((n) => ({ value: n, label: SOCIAL_LABELS[n] }));
const LEVEL_OPTIONS = [
  { value: "1", label: "1 (largest)" },
  { value: "2", label: "2" },
  { value: "3", label: "3 (smallest)" },
];
export const TEXT_LABEL = "Text (HTML: <p>, <b>, <i>, <a href>, <ul>/<ol>)";

function AlignField({ value, onPatch }: { value: (typeof ALIGNMENTS)[number]; onPatch: OnPatch }) {
  return (
    <SelectField
      label="Alignment"
      options={ALIGN_OPTIONS}
      selectProps={{
        className: CONTROL,
        value,
        onChange: (e) => {
          const align = ALIGNMENTS.find((a) => a === e.currentTarget.value);
          if (align) onPatch({ align });
        },
      }}
    />
  );
}

/** A one-line text field that reports each keystroke as typing in `field`. */
function TextField({
  label,
  field,
  value,
  onPatch,
  url,
  required,
  hint,
}: {
  label: string;
  field: string;
  value: string;
  onPatch: OnPatch;
  url?: boolean;
  required?: boolean;
  hint?: string;
}) {
  return (
    <Field
      label={label}
      required={required}
      hint={hint}
      inputProps={{
        className: CONTROL,
        type: "text",
        value,
        inputMode: url ? "url" : undefined,
        autoComplete: "off",
        spellCheck: url ? false : undefined,
        placeholder: url ? "https://" : undefined,
        onChange: (e) => onPatch({ [field]: e.currentTarget.value } as BlockPatch, field),
      }}
    />
  );
}

/**
 * A whole number: what is typed stays as typed while it is not a number yet (an empty field, a
 * lone "-"); each whole number typed changes the block, and leaving the field shows the block's value.
 */
function NumberField({
  label,
  value,
  min,
  max,
  hint,
  onValue,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  hint?: string;
  onValue: (n: number) => void;
}) {
  const [draft, setDraft] = useState(String(value));
  useEffect(() => {
    setDraft((d) => (Number(d) === value && d.trim() !== "" ? d : String(value)));
  }, [value]);
  return (
    <Field
      label={label}
      hint={hint}
      inputProps={{
        className: CONTROL,
        type: "number",
        inputMode: "numeric",
        min,
        max,
        step: 1,
        value: draft,
        onChange: (e) => {
          const text = e.currentTarget.value;
          setDraft(text);
          const n = Number(text);
          if (text.trim() !== "" && Number.isInteger(n)) onValue(n);
        },
        onBlur: () => setDraft(String(value)),
      }}
    />
  );
}

type SimpleBlock = Exclude<Block | ColumnBlock, { type: "columns" }>;

/** The fields of a block other than columns (block-editor.tsx draws those, with their own blocks). */
export function BlockFields({ block, onPatch }: { block: SimpleBlock; onPatch: OnPatch }) {
  switch (block.type) {
    case "heading":
      return (
        <div className="grid gap-3 @md:grid-cols-2">
          <TextField label="Text" field="text" value={block.text} onPatch={onPatch} required />
          <div className="grid grid-cols-2 gap-3">
            <SelectField
              label="Level"
              options={LEVEL_OPTIONS}
              selectProps={{
                className: CONTROL,
                value: String(block.level),
                onChange: (e) => {
                  const level = Number(e.currentTarget.value);
                  if (level === 1 || level === 2 || level === 3) onPatch({ level });
                },
              }}
            />
            <AlignField value={block.align} onPatch={onPatch} />
          </div>
        </div>
      );
    case "text":
      return (
        <div className="grid gap-3">
          <TextareaField
            label={TEXT_LABEL}
            textareaProps={{
              value: block.html,
              rows: 5,
              className: "input font-mono text-xs",
              spellCheck: true,
              onChange: (e) => onPatch({ html: e.currentTarget.value }, "html"),
            }}
          />
          <div className="@md:w-1/2">
            <AlignField value={block.align} onPatch={onPatch} />
          </div>
        </div>
      );
    case "image":
      return (
        <div className="grid gap-3 @md:grid-cols-2">
          <div className="space-y-2">
            <TextField label="Image address" field="src" value={block.src} onPatch={onPatch} url required />
            <ImageUploadButton onUploaded={(image) => onPatch({ src: image.url, width: blockWidthOf(image.width) })} />
          </div>
          <TextField
            label="Alt text"
            field="alt"
            value={block.alt}
            onPatch={onPatch}
            hint="What the image shows, for those who cannot see it"
          />
          <TextField label="Link (optional)" field="href" value={block.href} onPatch={onPatch} url />
          <div className="grid grid-cols-2 gap-3">
            <NumberField
              label="Width (px)"
              value={block.width}
              min={0}
              max={600}
              hint="0: full width"
              onValue={(width) => onPatch({ width })}
            />
            <AlignField value={block.align} onPatch={onPatch} />
          </div>
        </div>
      );
    case "button":
      return (
        <div className="grid gap-3 @md:grid-cols-2">
          <TextField label="Label" field="label" value={block.label} onPatch={onPatch} required />
          <TextField label="Link" field="href" value={block.href} onPatch={onPatch} url required />
          <div className="@md:w-1/2">
            <AlignField value={block.align} onPatch={onPatch} />
          </div>
        </div>
      );
    case "divider":
      return <p className="text-sm text-slate-500">A line across the message.</p>;
    case "spacer":
      return (
        <div className="@md:w-1/2">
          <NumberField
            label="Height (px)"
            value={block.height}
            min={4}
            max={120}
            hint="From 4 to 120"
            onValue={(height) => onPatch({ height })}
          />
        </div>
      );
    case "footer":
      return (
        <TextField
          label="Footer text"
          field="text"
          value={block.text}
          onPatch={onPatch}
          hint="Your name, postal address and the unsubscribe link are always added under it"
        />
      );
    case "social":
      return <SocialFields block={block} onPatch={onPatch} />;
  }
}

/** The most links a social block holds (SocialBlockSchema). */
const MAX_LINKS = 10;

function SocialFields({ block, onPatch }: { block: Extract<Block, { type: "social" }>; onPatch: OnPatch }) {
  const listId = useId();
  const links = block.links;
  const setLink = (i: number, change: Partial<(typeof links)[number]>, typing?: string) =>
    onPatch({ links: links.map((l, j) => (j === i ? { ...l, ...change } : l)) }, typing && `links.${i}.${typing}`);
  const unused = SOCIAL_NETWORKS.find((n) => !links.some((l) => l.network === n)) ?? "website";
  return (
    <div className="grid gap-3">
      <p id={listId} className="label mb-0">
        Links
      </p>
      <ul className="grid gap-3" aria-labelledby={listId}>
        {links.map((link, i) => (
          <li
            key={i}
            className="grid grid-cols-[minmax(0,1fr)_auto] items-end gap-2 @md:grid-cols-[10rem_minmax(0,1fr)_auto]"
          >
            <SelectField
              className="col-span-2 @md:col-span-1"
              label={`Network ${i + 1}`}
              options={NETWORK_OPTIONS}
              selectProps={{
                className: CONTROL,
                value: link.network,
                onChange: (e) => {
                  const network = SOCIAL_NETWORKS.find((n): n is SocialNetwork => n === e.currentTarget.value);
                  if (network) setLink(i, { network });
                },
              }}
            />
            <Field
              label={`Address ${i + 1}`}
              required
              inputProps={{
                className: CONTROL,
                type: "text",
                inputMode: "url",
                autoComplete: "off",
                spellCheck: false,
                placeholder: "https://",
                value: link.url,
                onChange: (e) => setLink(i, { url: e.currentTarget.value }, "url"),
              }}
            />
            <button
              type="button"
              className={`btn-ghost ${TOUCH} text-red-600 hover:bg-red-50`}
              aria-label={`Remove link ${i + 1}`}
              title="Remove link"
              disabled={links.length <= 1}
              onClick={() => onPatch({ links: links.filter((_, j) => j !== i) })}
            >
              <Trash2 className="h-4 w-4" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      <div className="flex flex-wrap items-end gap-3">
        <button
          type="button"
          className={`btn-secondary ${TOUCH}`}
          disabled={links.length >= MAX_LINKS}
          onClick={() => onPatch({ links: [...links, { network: unused, url: "" }] })}
        >
          <Plus className="h-4 w-4" aria-hidden="true" /> Add link
        </button>
        <div className="min-w-40 flex-1 @md:max-w-[50%]">
          <AlignField value={block.align} onPatch={onPatch} />
        </div>
      </div>
    </div>
  );
}
