-- A campaign made from a template keeps which template it came from and a frozen copy of its design.
ALTER TABLE "Campaign" ADD COLUMN "templateId" TEXT;
ALTER TABLE "Campaign" ADD COLUMN "design" TEXT NOT NULL DEFAULT '';
