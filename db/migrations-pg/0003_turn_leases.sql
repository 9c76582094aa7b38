ALTER TABLE "turns" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "turns" ADD COLUMN "lease_until" bigint;