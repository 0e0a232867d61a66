ALTER TABLE "blade_flow_definition" ADD COLUMN "start_messages" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_flow_instance" ADD COLUMN "waits_messages" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_flow_instance" ADD COLUMN "waits_signals" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_flow_instance" ADD COLUMN "super_instance_id" bigint;--> statement-breakpoint
ALTER TABLE "blade_flow_instance" ADD COLUMN "super_execution_id" varchar(100);--> statement-breakpoint
CREATE INDEX "ix_flow_instance_super" ON "blade_flow_instance" USING btree ("super_instance_id") WHERE super_instance_id is not null;--> statement-breakpoint
CREATE INDEX "ix_flow_instance_messages" ON "blade_flow_instance" USING gin ("waits_messages") WHERE status = 'running';--> statement-breakpoint
CREATE INDEX "ix_flow_instance_signals" ON "blade_flow_instance" USING gin ("waits_signals") WHERE status = 'running';