// The image POST /api/images takes as its request body: the file's bytes as they are, sent as the
// image's type (or as bytes); read up to MAX_IMAGE_BYTES and refused past it with a message that
// says what to do. What the bytes are is the service's check (app/services/images.server.ts).
import { ApiError, isBodyTooLarge } from "~/lib/api.server";
import { IMAGE_MESSAGES, MAX_IMAGE_BYTES } from "~/lib/images";

const IMAGE_BODY_TYPES = /^(image\/[a-z0-9.+-]+|application\/octet-stream)\s*(;|$)/i;

/** An image's bytes as they arrive, refused (413, saying what to do) once past MAX_IMAGE_BYTES. */
export async function imageBytes(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const kept: Buffer[] = [];
  let received = 0;
  try {
    for await (const chunk of chunks) {
      received += chunk.length;
      if (received > MAX_IMAGE_BYTES) throw new ApiError("payload_too_large", IMAGE_MESSAGES.tooLarge(received));
      kept.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (isBodyTooLarge(error)) throw new ApiError("payload_too_large", IMAGE_MESSAGES.tooLarge(received));
    throw error;
  }
  return Buffer.concat(kept);
}

export async function imageRequestBody(request: Request): Promise<Buffer> {
  const type = request.headers.get("Content-Type") ?? "";
  if (type && !IMAGE_BODY_TYPES.test(type))
    throw new ApiError(
      "bad_request",
      "Send the image file as the body, with its Content-Type (image/png, image/jpeg or image/gif)",
    );
  const declared = Number(request.headers.get("Content-Length") ?? 0);
  if (declared > MAX_IMAGE_BYTES) throw new ApiError("payload_too_large", IMAGE_MESSAGES.tooLarge(declared));
  if (!request.body) return Buffer.alloc(0);
  return imageBytes(request.body as unknown as AsyncIterable<Uint8Array>);
}
