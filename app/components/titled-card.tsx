// A card of a page that its heading names (aria-labelledby): the card, its h3 and what it holds.
import type { HTMLAttributes, ReactNode } from "react";

export function TitledCard({
  headingId,
  title,
  className = "card p-6",
  headingClassName = "mb-4 font-semibold text-slate-900",
  children,
  ...props
}: {
  /** The heading's id, which names the card. */
  headingId: string;
  title: ReactNode;
  className?: string;
  headingClassName?: string;
  children: ReactNode;
} & Omit<HTMLAttributes<HTMLElement>, "title">) {
  return (
    <section className={className} aria-labelledby={headingId} {...props}>
      <h3 id={headingId} className={headingClassName}>
        {title}
      </h3>
      {children}
    </section>
  );
}
