// Building blocks for long server-rendered tables (the customer and order lists): plain anchors
// that still navigate inside the app, and icons drawn from a sprite.
//
// Why: profiled on /customers at a million customers, rendering the page cost ~35 ms of CPU and
// React's server render was over half of it; the 150 <Link>s of a 50-row page (each resolves its
// path against the route tree) and the 100 lucide icons (each builds its SVG children) were the
// biggest parts. A row now renders plain <a> and <svg><use/></svg> elements; one click handler on
// the table hands same-app clicks to Remix's navigate, as <Link> would have.
import { useNavigate } from "@remix-run/react";
import type { LucideIcon } from "lucide-react";
import { useCallback } from "react";

/**
 * An onClick for a container of plain links: a left click without modifier keys on a same-origin
 * <a href> (not a download, not another target) navigates in the app instead of reloading the
 * page. `data-prevent-scroll-reset` on the anchor keeps the scroll position, like <Link>'s prop.
 */
export function useDelegatedLinks() {
  const navigate = useNavigate();
  return useCallback(
    (event: React.MouseEvent<HTMLElement>) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return;
      const anchor = (event.target as Element).closest?.("a[href]");
      if (!(anchor instanceof HTMLAnchorElement) || !event.currentTarget.contains(anchor)) return;
      if (
        (anchor.target && anchor.target !== "_self") ||
        anchor.hasAttribute("download") ||
        anchor.dataset.reload !== undefined
      )
        return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin) return;
      event.preventDefault();
      navigate(`${url.pathname}${url.search}${url.hash}`, {
        preventScrollReset: anchor.dataset.preventScrollReset !== undefined,
      });
    },
    [navigate],
  );
}

/** The symbols the page's <SpriteIcon>s draw, rendered once (hidden) before the table. */
export function IconSprite({ icons }: { icons: Record<string, LucideIcon> }) {
  return (
    <svg aria-hidden width="0" height="0" style={{ position: "absolute" }}>
      {Object.entries(icons).map(([id, Icon]) => (
        <symbol key={id} id={`icon-${id}`} viewBox="0 0 24 24">
          <Icon />
        </symbol>
      ))}
    </svg>
  );
}

/** One icon of the page's <IconSprite>, in the current text colour. */
export function SpriteIcon({ id, className = "h-4 w-4" }: { id: string; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" className={className} aria-hidden>
      <use href={`#icon-${id}`} />
    </svg>
  );
}
