-- The time zone a user chose on /profile (an IANA name such as "Asia/Kolkata"); null until they
-- choose one, and meanwhile dates show in the zone their browser reports
-- (docs/decisions/0016-time-zones.md).
ALTER TABLE "User" ADD COLUMN "timeZone" TEXT;
