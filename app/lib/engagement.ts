// The texts of open and click tracking (docs/rules.md#opens-and-clicks), shared by the wizard, the
// campaign's detail page and the tests.
export const TRACKING_TEXTS = {
  checkbox: "Track opens and clicks",
  checkboxHint:
    "Adds an invisible image and sends links through this app, so you can see who opened and clicked. The preview shows links as you wrote them.",
  on: "Opens and clicks are tracked",
  off: "Opens and clicks are not tracked",
  notTracked: "Opens and clicks were not tracked for this campaign",
  machines:
    "Machine opens and clicks come from mail privacy proxies (such as Apple Mail's), link scanners and bots, not people: they are shown here and left out of the rates.",
} as const;
