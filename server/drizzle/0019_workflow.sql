CREATE TABLE "blade_flow_definition" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"deployment_id" bigint NOT NULL,
	"process_key" varchar(64) NOT NULL,
	"name" varchar(255) NOT NULL,
	"version" integer NOT NULL,
	"category" varchar(64),
	"xml" text NOT NULL,
	"compiled" text NOT NULL,
	"suspended" smallint DEFAULT 0 NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_flow_deployment" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"name" varchar(255) NOT NULL,
	"category" varchar(64),
	"source" varchar(16) NOT NULL,
	"deploy_time" timestamp with time zone DEFAULT now() NOT NULL,
	"deploy_user" bigint
);
--> statement-breakpoint
CREATE TABLE "blade_flow_history" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"instance_id" bigint NOT NULL,
	"event" varchar(8) NOT NULL,
	"element_id" varchar(100) NOT NULL,
	"element_type" varchar(64) NOT NULL,
	"element_name" varchar(255),
	"execution_id" varchar(100),
	"source_id" varchar(100),
	"target_id" varchar(100),
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_flow_instance" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"definition_id" bigint NOT NULL,
	"process_key" varchar(64) NOT NULL,
	"process_name" varchar(255) NOT NULL,
	"business_key" varchar(64),
	"start_user" bigint,
	"start_user_name" varchar(100),
	"start_time" timestamp with time zone DEFAULT now() NOT NULL,
	"end_time" timestamp with time zone,
	"status" varchar(16) NOT NULL,
	"delete_reason" varchar(500),
	"state" jsonb,
	"variables" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"due_at" timestamp with time zone,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_flow_model" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"model_key" varchar(64) NOT NULL,
	"name" varchar(100) NOT NULL,
	"category" varchar(64),
	"description" varchar(500),
	"xml" text,
	"version" integer DEFAULT 1 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_flow_task" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"instance_id" bigint NOT NULL,
	"execution_id" varchar(100) NOT NULL,
	"task_definition_key" varchar(64) NOT NULL,
	"name" varchar(255) NOT NULL,
	"assignee" varchar(64),
	"candidate_users" text[] DEFAULT '{}'::text[] NOT NULL,
	"candidate_groups" text[] DEFAULT '{}'::text[] NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"claim_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"status" varchar(16) DEFAULT 'open' NOT NULL,
	"outcome" varchar(16),
	"comment" varchar(1000),
	"completed_by" varchar(64)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "uq_flow_definition_version" ON "blade_flow_definition" USING btree ("tenant_id","process_key","version");--> statement-breakpoint
CREATE INDEX "ix_flow_definition_deployment" ON "blade_flow_definition" USING btree ("deployment_id");--> statement-breakpoint
CREATE INDEX "ix_flow_deployment_time" ON "blade_flow_deployment" USING btree ("tenant_id","deploy_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_flow_history_instance" ON "blade_flow_history" USING btree ("instance_id","id");--> statement-breakpoint
CREATE INDEX "ix_flow_instance_due" ON "blade_flow_instance" USING btree ("due_at") WHERE status = 'running' and due_at is not null;--> statement-breakpoint
CREATE INDEX "ix_flow_instance_start_user" ON "blade_flow_instance" USING btree ("tenant_id","start_user","start_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_flow_instance_status" ON "blade_flow_instance" USING btree ("tenant_id","status","start_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_flow_instance_definition" ON "blade_flow_instance" USING btree ("definition_id");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_flow_model_key" ON "blade_flow_model" USING btree ("tenant_id","model_key") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_flow_task_execution" ON "blade_flow_task" USING btree ("instance_id","execution_id");--> statement-breakpoint
CREATE INDEX "ix_flow_task_assignee" ON "blade_flow_task" USING btree ("tenant_id","assignee","create_time" DESC NULLS LAST) WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "ix_flow_task_candidates" ON "blade_flow_task" USING gin ("candidate_groups") WHERE status = 'open' and assignee is null;--> statement-breakpoint
CREATE INDEX "ix_flow_task_candidate_users" ON "blade_flow_task" USING gin ("candidate_users") WHERE status = 'open' and assignee is null;--> statement-breakpoint
CREATE INDEX "ix_flow_task_done" ON "blade_flow_task" USING btree ("tenant_id","completed_by","end_time" DESC NULLS LAST) WHERE status = 'completed';--> statement-breakpoint
CREATE INDEX "ix_flow_task_instance" ON "blade_flow_task" USING btree ("instance_id","create_time");
--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_flow_model');
--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_flow_deployment');
--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_flow_definition');
--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_flow_instance');
--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_flow_task');
--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_flow_history');
