// The customer search index's SQL lives in app/models/customer-search.server.ts.
export { customerSearchSql, ftsPhrase, INDEX_CUSTOMERS_AFTER_SQL } from "~/models/customer-search.server"; // moved
