// "Upload an image": picks a file and sends it to POST /api/images, then hands the kept image (its
// public address and size) to `onUploaded`. Checked in the browser first (type and size, the
// server's own words), so a phone photo of 5 MB is refused before it is sent; the server checks
// again by what the bytes are. Needs JavaScript; without it, the Brand and images screen's form
// uploads (/templates/brand).
import { ImageUp } from "lucide-react";
import { useId, useRef, useState } from "react";
import { IMAGE_ACCEPT, IMAGE_MESSAGES, IMAGE_TYPES, MAX_IMAGE_BYTES } from "~/lib/images";

/** What the editor needs of an uploaded image. */
export type UploadedImage = { url: string; width: number; height: number; name: string };

const KNOWN_TYPES: readonly string[] = Object.values(IMAGE_TYPES);

export function ImageUploadButton({
  label = "Upload an image",
  onUploaded,
}: {
  label?: string;
  onUploaded: (image: UploadedImage) => void;
}) {
  const inputId = useId();
  const statusId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<{ kind: "idle" | "busy" | "done" | "error"; text: string }>({
    kind: "idle",
    text: "",
  });

  async function upload(file: File) {
    if (file.size === 0) return setStatus({ kind: "error", text: IMAGE_MESSAGES.empty });
    if (file.size > MAX_IMAGE_BYTES) return setStatus({ kind: "error", text: IMAGE_MESSAGES.tooLarge(file.size) });
    if (file.type && !KNOWN_TYPES.includes(file.type))
      return setStatus({ kind: "error", text: IMAGE_MESSAGES.notImage });
    setStatus({ kind: "busy", text: `Uploading ${file.name}…` });
    try {
      const response = await fetch(`/api/images?name=${encodeURIComponent(file.name)}`, {
        method: "POST",
        headers: { "Content-Type": file.type || "application/octet-stream", Accept: "application/json" },
        body: file,
      });
      const answer = (await response.json().catch(() => null)) as
        (UploadedImage & { error?: undefined }) | { error?: { message?: string } } | null;
      if (!response.ok || !answer || !("url" in answer)) {
        const message = answer && "error" in answer ? answer.error?.message : undefined;
        return setStatus({ kind: "error", text: message ?? "The upload failed. Please try again." });
      }
      onUploaded({ url: answer.url, width: answer.width, height: answer.height, name: answer.name });
      setStatus({ kind: "done", text: `Uploaded ${answer.name} (${answer.width} × ${answer.height} px).` });
    } catch {
      setStatus({ kind: "error", text: "The upload did not reach the server. Check your connection and try again." });
    } finally {
      if (input.current) input.current.value = "";
    }
  }

  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={inputId} className="btn-secondary min-h-11 w-fit cursor-pointer sm:min-h-9">
        <ImageUp className="h-4 w-4" aria-hidden /> {status.kind === "busy" ? "Uploading…" : label}
      </label>
      <input
        ref={input}
        id={inputId}
        type="file"
        accept={IMAGE_ACCEPT}
        className="sr-only"
        aria-describedby={statusId}
        disabled={status.kind === "busy"}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) void upload(file);
        }}
      />
      <p
        id={statusId}
        role={status.kind === "error" ? "alert" : "status"}
        className={status.kind === "error" ? "text-sm text-red-700" : "text-sm text-slate-600"}
      >
        {status.text}
      </p>
    </div>
  );
}
