// State that must outlive a re-evaluation of the module that owns it. In development Vite
// re-runs a server module when it (or what it imports) is edited; a database connection, the
// process bus or the per-request context made again there would leave the old one open or split
// the process in two. In production each module is evaluated once and this is a plain lazy value.
const registry = new Map<string, unknown>();
const KEY = "__crmSingletons";

/** The value made by `create` the first time `name` is asked for in this process. */
export function singleton<T>(name: string, create: () => T): T {
  // Vite may evaluate this module again too: the registry itself hangs off globalThis, once.
  const g = globalThis as { [KEY]?: Map<string, unknown> };
  const values = (g[KEY] ??= registry);
  if (!values.has(name)) values.set(name, create());
  return values.get(name) as T;
}
