// The customer story's door: the one file other code imports its functions from. Each runs the
// implementation of the engine DATABASE_URL names (~/db/engine.server).
import { engineDoor } from "~/db/engine.server";
import type { CustomerStoryStore } from "./contract";
import { postgresCustomerStory } from "./postgres.server";
import { sqliteCustomerStory } from "./sqlite.server";

export const customerStories = engineDoor<CustomerStoryStore>({
  sqlite: sqliteCustomerStory,
  postgres: postgresCustomerStory,
});

export type { StoryCursor, StoryRow, StoryRowKind } from "./rows";
