import { avatarLetter } from "~/lib/shell";

export function Avatar({ name, image, size = 36 }: { name?: string | null; image?: string | null; size?: number }) {
  const style = { width: size, height: size, fontSize: size * 0.42 };
  if (image) {
    return <img src={image} alt="" style={style} className="rounded-full object-cover" referrerPolicy="no-referrer" />;
  }
  return (
    <span
      style={style}
      className="flex items-center justify-center rounded-full bg-secondary font-semibold text-white"
      data-testid="avatar-letter"
    >
      {avatarLetter(name)}
    </span>
  );
}
