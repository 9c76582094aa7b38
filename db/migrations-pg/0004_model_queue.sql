CREATE TABLE "model_queue" (
	"turn_id" text PRIMARY KEY NOT NULL,
	"process" text NOT NULL,
	"thread_id" text NOT NULL,
	"person" text,
	"model" text,
	"avoid_url" text,
	"seq" bigint NOT NULL,
	"server_url" text,
	"slot" bigint,
	"refused" boolean DEFAULT false NOT NULL,
	"lease_until" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "model_queue_lease_idx" ON "model_queue" USING btree ("lease_until");