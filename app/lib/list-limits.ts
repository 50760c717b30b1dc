// How many rows a page of an /api list holds (customers, orders, suppressions, a customer's story):
// `limit` is DEFAULT_LIST_LIMIT when not given and at most MAX_LIST_LIMIT. The services clamp it,
// the query schemas refuse more with a 400.
export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;
