CREATE TABLE "blade_post" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"category" integer NOT NULL,
	"post_code" varchar(64) NOT NULL,
	"post_name" varchar(64) NOT NULL,
	"sort" integer DEFAULT 1 NOT NULL,
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
CREATE TABLE "blade_region" (
	"id" bigint PRIMARY KEY NOT NULL,
	"code" varchar(12) NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"ancestors" varchar(255) DEFAULT '0' NOT NULL,
	"name" varchar(64) NOT NULL,
	"region_level" smallint NOT NULL,
	"province_code" varchar(12),
	"province_name" varchar(64),
	"city_code" varchar(12),
	"city_name" varchar(64),
	"district_code" varchar(12),
	"district_name" varchar(64),
	"sort" integer DEFAULT 1 NOT NULL,
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
CREATE UNIQUE INDEX "uq_post_code" ON "blade_post" USING btree ("tenant_id","post_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_post_tenant_sort" ON "blade_post" USING btree ("tenant_id","sort","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_region_code" ON "blade_region" USING btree ("code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_region_parent" ON "blade_region" USING btree ("parent_id","sort") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_dept_parent" ON "blade_dept" USING btree ("tenant_id","parent_id") WHERE is_deleted = 0;--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_post');
