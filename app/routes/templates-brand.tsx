// /templates/brand: the tenant's brand and their uploaded images (docs/decisions/0043-templates-and-merge-tags.md).
// The brand (five colours, a font, the logo on top of every message, the postal address of every
// footer) is worn by every template; a campaign keeps the brand it was made with. Images are
// uploaded here (a plain multipart form, so it works without JavaScript) or from the block
// editor; each one's public address goes into an image block, an HTML template or the logo, and
// "Use as logo" sets it. An image a template or a campaign still shows is not deleted.
import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { ArrowLeft, ImageUp, Palette, Save } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { z } from "zod";
import { ConfirmDialog } from "~/components/confirm-dialog";
import { RouteErrorBoundary } from "~/components/error-boundary";
import { Field, FormAlert, liveChecks, SelectField } from "~/components/forms";
import { PageHeader } from "~/components/page-header";
import { PostButton } from "~/components/post-button";
import { useResetAfterPost } from "~/components/reset-after-post";
import { SubmitButton } from "~/components/submit-button";
import { ImageUploadButton } from "~/components/templates/image-upload";
import { allowMethods, ApiError, keepAllowHeader } from "~/lib/api.server";
import { BRAND } from "~/lib/brand";
import { importUploadedFile } from "~/lib/file-upload.server";
import { imageBytes } from "~/lib/image-request.server";
import { formatBytes, IMAGE_ACCEPT } from "~/lib/images";
import { replyRefused, replyUnfinished } from "~/lib/forms.server";
import { BRAND_FONT_KEYS, BRAND_FONTS, type BrandFont } from "~/lib/template-brand";
import { BrandInputSchema } from "~/schemas/brand";
import { requireUser } from "~/services/auth.server";
import { getBrand, saveBrand } from "~/services/brand.server";
import { deleteImage, getImage, listImages, uploadImage } from "~/services/images.server";
import { redirectWithFlash } from "~/services/session.server";

// A 405 keeps its Allow header on the rendered page (app/lib/api.server.ts).
export const headers = keepAllowHeader;

export const meta: MetaFunction = () => [{ title: `Brand and images · ${BRAND}` }];

const SAVE_FAILED = "Failed to save the brand";
const HERE = "/templates/brand";

/** The brand form as the page posts it: the brand's fields and the intent of its button. */
const BrandFormSchema = BrandInputSchema.extend({ intent: z.literal("brand").optional() });

const FONT_OPTIONS = BRAND_FONT_KEYS.map((key) => ({ value: key, label: BRAND_FONTS[key].label }));
const COLOURS = [
  { name: "background", label: "Background" },
  { name: "textColor", label: "Text" },
  { name: "linkColor", label: "Links" },
  { name: "buttonColor", label: "Buttons" },
  { name: "buttonTextColor", label: "Button text" },
] as const;
type ColourName = (typeof COLOURS)[number]["name"];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const [brand, images] = await Promise.all([getBrand(user.id), listImages(user.id)]);
  const deleteId = new URL(request.url).searchParams.get("delete");
  return { brand, images, deleting: images.find((image) => image.id === deleteId) ?? null };
}

/** Back to the page with a toast: how an upload, a delete or "Use as logo" ends, done or refused. */
const toast = (request: Request, type: "success" | "error", message: string) =>
  redirectWithFlash(request, HERE, { kind: "toast", type, message });

export async function action({ request }: ActionFunctionArgs) {
  allowMethods(request, "GET", "POST");
  const user = await requireUser(request);
  // The upload form is the one multipart form here: its file is read as it arrives, at most 1 MB of it.
  if (/^multipart\/form-data\b/i.test(request.headers.get("Content-Type") ?? "")) {
    const upload = await importUploadedFile(
      request,
      async (chunks, filename) => uploadImage(user.id, await imageBytes(chunks), filename),
      undefined,
      "Choose an image file to upload.",
    );
    if (!upload.ok) return toast(request, "error", upload.message);
    const { image, created } = upload.result;
    return toast(
      request,
      "success",
      created ? `Uploaded ${image.name}` : `${image.name} was uploaded before: it is below`,
    );
  }
  const form = await request.formData();
  const intent = String(form.get("intent") ?? "brand");
  try {
    if (intent === "delete-image") {
      await deleteImage(user.id, String(form.get("id") ?? ""));
      return toast(request, "success", "Image deleted");
    }
    if (intent === "use-as-logo") {
      const image = await getImage(user.id, String(form.get("id") ?? ""));
      const { updatedAt: _at, ...brand } = await getBrand(user.id);
      await saveBrand(user.id, { ...brand, logoUrl: image.url });
      return toast(
        request,
        "success",
        brand.logoAlt
          ? "Logo set: every template shows it on top"
          : "Logo set. Give it alt text (your shop's name) below",
      );
    }
  } catch (error) {
    if (error instanceof ApiError) return toast(request, "error", error.message);
    throw error;
  }
  const submission = parseWithZod(form, { schema: BrandFormSchema });
  if (submission.status !== "success") return replyUnfinished(submission, SAVE_FAILED);
  try {
    const { intent: _intent, ...brand } = submission.value;
    await saveBrand(user.id, brand);
  } catch (error) {
    return replyRefused(submission, error, SAVE_FAILED);
  }
  return toast(request, "success", "Brand saved: every template wears it");
}

type Sample = Record<ColourName, string> & { font: BrandFont; logoUrl: string; logoAlt: string };

/** A small message in the brand as it is being set: a heading, a line with a link, a button. */
function BrandSample({ sample }: { sample: Sample }) {
  return (
    <div
      className="rounded-md border border-slate-200 p-4"
      style={{ background: sample.background, fontFamily: BRAND_FONTS[sample.font]?.stack }}
      aria-label="How a message looks in this brand"
      role="img"
    >
      <div className="mx-auto max-w-sm space-y-3 rounded bg-white p-4" style={{ color: sample.textColor }}>
        {/^https?:\/\//i.test(sample.logoUrl) ? (
          <img src={sample.logoUrl} alt={sample.logoAlt} className="mx-auto max-h-12" />
        ) : null}
        <p className="text-lg font-bold">Hello Asha,</p>
        <p className="text-sm">
          Our new collection is in. <span style={{ color: sample.linkColor, textDecoration: "underline" }}>See it</span>
          .
        </p>
        <span
          className="inline-block rounded-md px-4 py-2 text-sm font-semibold"
          style={{ background: sample.buttonColor, color: sample.buttonTextColor }}
        >
          Shop now
        </span>
      </div>
    </div>
  );
}

export default function BrandAndImages() {
  const { brand, images, deleting } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  // Which form is posting: the upload (its file), or the one its intent names.
  const sent = navigation.state === "submitting" ? navigation.formData : undefined;
  const posting = sent ? (sent.has("file") ? "upload" : String(sent.get("intent") ?? "brand")) : null;
  const [form, fields] = useForm({
    id: `brand-${brand.updatedAt ?? "default"}`,
    lastResult,
    defaultValue: brand,
    ...liveChecks(BrandFormSchema),
  });
  const [sample, setSample] = useState<Sample>(brand);
  const [logoUrl, setLogoUrl] = useState(brand.logoUrl);
  // The brand as saved now (a save, "Use as logo"): the sample and the logo field follow it, so a
  // later save never writes back an older logo.
  useEffect(() => {
    setSample(brand);
    setLogoUrl(brand.logoUrl);
  }, [brand]);
  const uploadForm = useRef<HTMLFormElement>(null);
  useResetAfterPost(
    posting === "upload",
    undefined,
    useCallback(() => uploadForm.current?.reset(), []),
  );
  const formProps = getFormProps(form);

  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <PageHeader
        title="Brand and images"
        titleClassName="min-w-0"
        actions={
          <Link to="/templates" className="btn-secondary">
            <ArrowLeft className="h-4 w-4" aria-hidden /> Templates
          </Link>
        }
      >
        <p className="text-slate-600">
          Your colours, font and logo, worn by every template; the images your templates show.
        </p>
      </PageHeader>

      <section className="card space-y-4 p-5" aria-labelledby="brand-title">
        <h3 id="brand-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <Palette className="h-5 w-5" aria-hidden /> Brand
        </h3>
        <FormAlert id={form.errorId} errors={form.errors} />
        <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
          <Form
            method="post"
            className="space-y-4"
            {...formProps}
            onChange={(event) => {
              const data = new FormData(event.currentTarget);
              const text = (name: string) => String(data.get(name) ?? "");
              const font = text("font");
              setSample({
                background: text("background"),
                textColor: text("textColor"),
                linkColor: text("linkColor"),
                buttonColor: text("buttonColor"),
                buttonTextColor: text("buttonTextColor"),
                font: (BRAND_FONT_KEYS as string[]).includes(font) ? (font as BrandFont) : "system",
                logoUrl: text("logoUrl"),
                logoAlt: text("logoAlt"),
              });
            }}
          >
            <input type="hidden" name="intent" value="brand" />
            <fieldset className="grid grid-cols-2 gap-3 sm:grid-cols-5">
              <legend className="mb-2 text-sm font-medium text-slate-700">Colours</legend>
              {COLOURS.map((colour) => (
                <Field
                  key={colour.name}
                  label={colour.label}
                  inputProps={{ ...getInputProps(fields[colour.name], { type: "color" }), className: "input h-11 p-1" }}
                  errors={fields[colour.name].errors}
                />
              ))}
            </fieldset>
            <SelectField
              label="Font"
              hint="Fonts every mail client has; a reader without the first gets a close one."
              options={FONT_OPTIONS}
              selectProps={getSelectProps(fields.font)}
              errors={fields.font.errors}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="space-y-2">
                <Field
                  label="Logo address"
                  hint="Shown on top of every message; empty for none. Upload one, or use an image below."
                  inputProps={{
                    ...getInputProps(fields.logoUrl, { type: "text" }),
                    autoComplete: "off",
                    value: logoUrl,
                    defaultValue: undefined,
                    onChange: (event) => setLogoUrl(event.currentTarget.value),
                  }}
                  errors={fields.logoUrl.errors}
                />
                <ImageUploadButton
                  label="Upload a logo"
                  onUploaded={(image) => {
                    setLogoUrl(image.url);
                    setSample((s) => ({ ...s, logoUrl: image.url }));
                  }}
                />
              </div>
              <Field
                label="Logo alt text"
                hint="Read out, or shown while images are off: usually the shop's name."
                inputProps={{ ...getInputProps(fields.logoAlt, { type: "text" }), autoComplete: "off" }}
                errors={fields.logoAlt.errors}
              />
            </div>
            <Field
              label="Postal address"
              hint="Printed in every message's footer (the law asks for it in many countries). Empty: the install's MAIL_POSTAL_ADDRESS."
              inputProps={{ ...getInputProps(fields.postalAddress, { type: "text" }), autoComplete: "street-address" }}
              errors={fields.postalAddress.errors}
            />
            <SubmitButton busy={posting === "brand"} busyLabel="Saving..." icon={Save} className="btn-primary">
              Save brand
            </SubmitButton>
          </Form>
          <div className="self-start">
            <BrandSample sample={{ ...sample, logoUrl }} />
          </div>
        </div>
      </section>

      <section className="card space-y-4 p-5" aria-labelledby="images-title">
        <h3 id="images-title" className="flex items-center gap-2 text-lg font-semibold text-slate-900">
          <ImageUp className="h-5 w-5" aria-hidden /> Images
        </h3>
        <Form ref={uploadForm} method="post" encType="multipart/form-data" className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor="image-file" className="mb-1 block text-sm font-medium text-slate-700">
              Image file
            </label>
            <input id="image-file" name="file" type="file" accept={IMAGE_ACCEPT} required className="input" />
            <p className="mt-1 text-xs text-slate-500">PNG, JPEG or GIF, at most 1 MB. About 1200 px wide is plenty.</p>
          </div>
          <SubmitButton busy={posting === "upload"} busyLabel="Uploading..." icon={ImageUp} className="btn-secondary">
            Upload
          </SubmitButton>
        </Form>
        {images.length === 0 ? (
          <p className="text-sm text-slate-600">No images yet. Uploaded images are kept here for every template.</p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label="Your images">
            {images.map((image) => (
              <li
                key={image.id}
                className="flex flex-col gap-2 rounded-md border border-slate-200 p-3"
                data-testid="image"
              >
                <div className="flex h-32 items-center justify-center rounded bg-slate-50">
                  <img src={image.url} alt={image.name} className="max-h-32 max-w-full object-contain" loading="lazy" />
                </div>
                <p className="truncate font-medium text-slate-800" title={image.name}>
                  {image.name}
                </p>
                <p className="text-xs text-slate-500">
                  {image.width} × {image.height} px · {formatBytes(image.size)}
                </p>
                <label className="text-xs text-slate-600">
                  Address
                  <input
                    readOnly
                    value={image.url}
                    className="input mt-1 font-mono text-xs"
                    onFocus={(event) => event.currentTarget.select()}
                  />
                </label>
                <div className="mt-auto flex flex-wrap gap-2">
                  <PostButton fields={{ intent: "use-as-logo", id: image.id }} className="btn-secondary">
                    Use as logo
                  </PostButton>
                  <Link
                    to={`?delete=${image.id}`}
                    className="btn-ghost text-red-700"
                    aria-label={`Delete ${image.name}`}
                  >
                    Delete
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>

      <ConfirmDialog
        open={Boolean(deleting)}
        title="Delete image"
        message={
          deleting ? (
            <p>
              Delete <strong>“{deleting.name}”</strong>? This cannot be undone. An image a template or a campaign still
              shows is kept.
            </p>
          ) : null
        }
        cancelHref={HERE}
        action={HERE}
        fields={{ intent: "delete-image", id: deleting?.id ?? "" }}
        confirmLabel="Delete"
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteErrorBoundary backTo="/templates" fallback="Failed to load the brand. Please try again." />;
}
