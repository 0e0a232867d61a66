CREATE TABLE "ymy_agreement" (
	"id" bigint PRIMARY KEY NOT NULL,
	"type" varchar(16) NOT NULL,
	"language" varchar(8) NOT NULL,
	"title" varchar(255) NOT NULL,
	"content" text NOT NULL,
	"version" varchar(32) NOT NULL,
	"publish_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "blade_attach" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"domain_url" varchar(255) DEFAULT '' NOT NULL,
	"link" varchar(1000) NOT NULL,
	"name" varchar(500) NOT NULL,
	"original_name" varchar(500) NOT NULL,
	"extension" varchar(16) NOT NULL,
	"content_type" varchar(100) NOT NULL,
	"attach_size" bigint NOT NULL,
	"sha256" varchar(64) NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "uq_agreement_version" ON "ymy_agreement" USING btree ("type","language","version") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_agreement_published" ON "ymy_agreement" USING btree ("type","language","publish_time" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_attach_tenant_time" ON "blade_attach" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_attach_name" ON "blade_attach" USING btree ("name");--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_attach'::regclass);
--> statement-breakpoint
-- Dashboard series count rows per day over a window, for one tenant or (platform) all of them. The log
-- tables and sessions are append-only in time order, so a BRIN index serves the all-tenant range at a
-- fraction of a b-tree's size and write cost; the tenant's own range uses the existing (tenant_id, time).
CREATE INDEX IF NOT EXISTS "brin_log_api_time" ON "blade_log_api" USING brin ("create_time");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "brin_log_error_time" ON "blade_log_error" USING brin ("create_time");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "brin_session_time" ON "auth_session" USING brin ("create_time");
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "ix_session_tenant_time" ON "auth_session" USING btree ("tenant_id", "create_time");
