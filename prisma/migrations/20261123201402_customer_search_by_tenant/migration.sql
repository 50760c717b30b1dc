-- Customer search scoped to its tenant inside the index. The trigram index's rowid becomes
-- (User.rowid << 40) | Customer.rowid, so each tenant's entries form one contiguous rowid range,
-- and a search passes that range to FTS5 with its MATCH ("MATCH ? AND rowid BETWEEN lo AND hi"):
-- FTS5 seeks every doclist to the range instead of reading the other tenants' entries and leaving
-- the owner filter to the join. Before this, a search with no matches of one's own read every
-- other tenant's matches (hundreds of ms behind a tenant with 100,000 of them), which was slow and
-- told one tenant how common a term was among another's customers.
--
-- Limits: 2^40 customer rowids and 2^23 users, far beyond one SQLite file's reach. Neither rowid
-- is an INTEGER PRIMARY KEY alias; nothing here runs VACUUM, which (measured, SQLite 3.53) keeps
-- them anyway.
--
-- As before, the services insert (one row, or one INSERT ... SELECT per import batch) and the
-- triggers handle updates and deletes. A deleted user's customers are removed by the foreign key's
-- cascade after the User row is gone, when their key can no longer be computed, so the user's
-- entries are deleted first, by a BEFORE DELETE trigger on User.
DROP TRIGGER "customer_search_update";
DROP TRIGGER "customer_search_delete";
DROP TABLE "customer_search";

CREATE VIRTUAL TABLE "customer_search" USING fts5(
    name, email, content='', contentless_delete=1, tokenize='trigram'
);

-- In rowid order (one tenant after another): FTS5 writes its in-memory buffer out whenever a rowid
-- is lower than the last one, so unordered rowids would make a segment of every few rows. The
-- larger buffer for the rebuild is the bulk loads' (app/db/bulk-load.server.ts), then the default.
INSERT INTO "customer_search" ("customer_search", rank) VALUES ('hashsize', 67108864);
INSERT INTO "customer_search" (rowid, name, email)
    SELECT (u.rowid << 40) | c.rowid, c."firstName" || ' ' || c."lastName", c."email"
    FROM "User" u JOIN "Customer" c ON c."userId" = u."id"
    ORDER BY u.rowid, c.rowid;
INSERT INTO "customer_search" ("customer_search", rank) VALUES ('hashsize', 1048576);

CREATE TRIGGER "customer_search_update" AFTER UPDATE OF "firstName", "lastName", "email" ON "Customer"
WHEN old."firstName" IS NOT new."firstName" OR old."lastName" IS NOT new."lastName" OR old."email" IS NOT new."email"
BEGIN
    DELETE FROM "customer_search" WHERE rowid = ((SELECT u.rowid FROM "User" u WHERE u."id" = old."userId") << 40) | old.rowid;
    INSERT INTO "customer_search" (rowid, name, email)
        SELECT (u.rowid << 40) | new.rowid, new."firstName" || ' ' || new."lastName", new."email" FROM "User" u WHERE u."id" = new."userId";
END;

-- During a user's cascade the key is NULL, which deletes nothing: the trigger below did it.
CREATE TRIGGER "customer_search_delete" AFTER DELETE ON "Customer"
BEGIN
    DELETE FROM "customer_search" WHERE rowid = ((SELECT u.rowid FROM "User" u WHERE u."id" = old."userId") << 40) | old.rowid;
END;

CREATE TRIGGER "customer_search_user_delete" BEFORE DELETE ON "User"
BEGIN
    DELETE FROM "customer_search" WHERE rowid IN (SELECT (old.rowid << 40) | c.rowid FROM "Customer" c WHERE c."userId" = old."id");
END;
