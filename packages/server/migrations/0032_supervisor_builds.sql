-- Issue 17 item 4: Flotilla's agent builds as the artifacts of supervisor releases
-- (features/agent-releases). One row per release of a supervisor block that a running agent can
-- install: the single-file build itself (content, stored here so a backup of the database has
-- it and every server process serves it), its sha256 and size. A row with `bundled` true is the
-- server's own agent bundle (no content: the server builds it from its code); at most one
-- release per block has it, the one of the server's agent version. Written by the server only.
CREATE TABLE "supervisor_build" (
  "release" integer PRIMARY KEY REFERENCES "release" ("id") ON DELETE CASCADE,
  "bundled" boolean NOT NULL DEFAULT false,
  "content" bytea,
  "sha256" char(64),
  "size" integer,
  "created_at" timestamp with time zone NOT NULL DEFAULT now(),
  CHECK ("bundled" OR ("content" IS NOT NULL AND "sha256" IS NOT NULL AND "size" IS NOT NULL))
);
