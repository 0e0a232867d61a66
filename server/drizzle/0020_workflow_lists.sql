CREATE TABLE "blade_process_leave" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"process_definition_id" bigint NOT NULL,
	"process_instance_id" bigint,
	"start_time" timestamp with time zone NOT NULL,
	"end_time" timestamp with time zone NOT NULL,
	"days" integer NOT NULL,
	"reason" varchar(500) NOT NULL,
	"task_user" bigint NOT NULL,
	"apply_time" timestamp with time zone DEFAULT now() NOT NULL,
	"approval_comment" varchar(1000),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blade_flow_definition" ADD COLUMN "is_deleted" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "blade_flow_definition" ADD COLUMN "name_grams" text[] GENERATED ALWAYS AS (app_grams("name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_flow_instance" ADD COLUMN "category" varchar(64);--> statement-breakpoint
ALTER TABLE "blade_flow_instance" ADD COLUMN "process_name_grams" text[] GENERATED ALWAYS AS (app_grams("process_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_flow_instance" ADD COLUMN "business_key_grams" text[] GENERATED ALWAYS AS (app_grams("business_key")) STORED;--> statement-breakpoint
ALTER TABLE "blade_flow_instance" ADD COLUMN "start_user_name_grams" text[] GENERATED ALWAYS AS (app_grams("start_user_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_flow_model" ADD COLUMN "model_key_grams" text[] GENERATED ALWAYS AS (app_grams("model_key")) STORED;--> statement-breakpoint
ALTER TABLE "blade_flow_model" ADD COLUMN "name_grams" text[] GENERATED ALWAYS AS (app_grams("name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_flow_task" ADD COLUMN "definition_id" bigint;--> statement-breakpoint
ALTER TABLE "blade_flow_task" ADD COLUMN "process_name" varchar(255);--> statement-breakpoint
ALTER TABLE "blade_flow_task" ADD COLUMN "category" varchar(64);--> statement-breakpoint
ALTER TABLE "blade_flow_task" ADD COLUMN "business_key" varchar(64);--> statement-breakpoint
ALTER TABLE "blade_flow_task" ADD COLUMN "start_user_name" varchar(100);--> statement-breakpoint
ALTER TABLE "blade_flow_task" ADD COLUMN "process_name_grams" text[] GENERATED ALWAYS AS (app_grams("process_name")) STORED;--> statement-breakpoint
ALTER TABLE "blade_flow_task" ADD COLUMN "business_key_grams" text[] GENERATED ALWAYS AS (app_grams("business_key")) STORED;--> statement-breakpoint
ALTER TABLE "blade_flow_task" ADD COLUMN "start_user_name_grams" text[] GENERATED ALWAYS AS (app_grams("start_user_name")) STORED;--> statement-breakpoint
CREATE INDEX "ix_process_leave_instance" ON "blade_process_leave" USING btree ("process_instance_id");--> statement-breakpoint
CREATE INDEX "ix_flow_definition_name_grams" ON "blade_flow_definition" USING gin ("name_grams");--> statement-breakpoint
CREATE INDEX "ix_flow_instance_process_name_grams" ON "blade_flow_instance" USING gin ("process_name_grams");--> statement-breakpoint
CREATE INDEX "ix_flow_instance_business_key_grams" ON "blade_flow_instance" USING gin ("business_key_grams");--> statement-breakpoint
CREATE INDEX "ix_flow_instance_start_user_name_grams" ON "blade_flow_instance" USING gin ("start_user_name_grams");--> statement-breakpoint
CREATE INDEX "ix_flow_model_key_grams" ON "blade_flow_model" USING gin ("model_key_grams");--> statement-breakpoint
CREATE INDEX "ix_flow_model_name_grams" ON "blade_flow_model" USING gin ("name_grams");--> statement-breakpoint
CREATE INDEX "ix_flow_task_process_name_grams" ON "blade_flow_task" USING gin ("process_name_grams");--> statement-breakpoint
CREATE INDEX "ix_flow_task_business_key_grams" ON "blade_flow_task" USING gin ("business_key_grams");--> statement-breakpoint
CREATE INDEX "ix_flow_task_start_user_name_grams" ON "blade_flow_task" USING gin ("start_user_name_grams");--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_process_leave');
