-- Customer search at a million rows: a trigram full-text index over "first last" name and e-mail
-- (case-insensitive substring search without scanning the table), and the per-tenant customer
-- count behind the list's exact total. Written by hand: Prisma's schema language has no virtual
-- tables or triggers.
--
-- Inserts into customer_search are made by the services (one row, or one INSERT ... SELECT per
-- import batch, which is several times faster than a per-row trigger); updates and deletes are
-- kept by the triggers below, so a cascade from a deleted user cleans up too.
CREATE VIRTUAL TABLE "customer_search" USING fts5(
    name, email, content='', contentless_delete=1, tokenize='trigram'
);

INSERT INTO "customer_search" (rowid, name, email)
    SELECT rowid, "firstName" || ' ' || "lastName", "email" FROM "Customer";

CREATE TRIGGER "customer_search_update" AFTER UPDATE OF "firstName", "lastName", "email" ON "Customer"
WHEN old."firstName" IS NOT new."firstName" OR old."lastName" IS NOT new."lastName" OR old."email" IS NOT new."email"
BEGIN
    DELETE FROM "customer_search" WHERE rowid = old.rowid;
    INSERT INTO "customer_search" (rowid, name, email) VALUES (new.rowid, new."firstName" || ' ' || new."lastName", new."email");
END;

CREATE TRIGGER "customer_search_delete" AFTER DELETE ON "Customer"
BEGIN
    DELETE FROM "customer_search" WHERE rowid = old.rowid;
END;

INSERT INTO "CustomerTally" ("userId", "customers")
    SELECT "userId", count(*) FROM "Customer" GROUP BY "userId"
    ON CONFLICT ("userId") DO UPDATE SET "customers" = excluded."customers";

CREATE TRIGGER "customer_tally_insert" AFTER INSERT ON "Customer"
BEGIN
    INSERT INTO "CustomerTally" ("userId", "customers") VALUES (new."userId", 1)
        ON CONFLICT ("userId") DO UPDATE SET "customers" = "customers" + 1;
END;

CREATE TRIGGER "customer_tally_delete" AFTER DELETE ON "Customer"
BEGIN
    UPDATE "CustomerTally" SET "customers" = "customers" - 1 WHERE "userId" = old."userId";
END;
