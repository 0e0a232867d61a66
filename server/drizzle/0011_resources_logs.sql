CREATE TABLE "blade_oss" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"category" integer NOT NULL,
	"oss_code" varchar(64) NOT NULL,
	"endpoint" varchar(255),
	"access_key" text,
	"secret_key" text,
	"bucket_name" varchar(255),
	"app_id" varchar(64),
	"region" varchar(64),
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_sms" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"category" integer NOT NULL,
	"sms_code" varchar(64) NOT NULL,
	"template_id" varchar(64) NOT NULL,
	"access_key" text,
	"secret_key" text,
	"app_id" varchar(64),
	"region_id" varchar(64),
	"sign_name" varchar(64),
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "blade_attach" ADD COLUMN "oss_id" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_oss_code" ON "blade_oss" USING btree ("tenant_id","oss_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_oss_enabled" ON "blade_oss" USING btree ("tenant_id") WHERE status = 2 and is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_oss_tenant_time" ON "blade_oss" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_sms_code" ON "blade_sms" USING btree ("tenant_id","sms_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_sms_enabled" ON "blade_sms" USING btree ("tenant_id") WHERE status = 2 and is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_sms_tenant_time" ON "blade_sms" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_log_api_time" ON "blade_log_api" USING btree ("create_time");--> statement-breakpoint
CREATE INDEX "ix_log_error_time" ON "blade_log_error" USING btree ("create_time");--> statement-breakpoint
CREATE INDEX "ix_log_usual_time" ON "blade_log_usual" USING btree ("create_time");--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_sms');
--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_oss');
