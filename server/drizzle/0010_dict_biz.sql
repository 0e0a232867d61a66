CREATE TABLE "blade_dict_biz" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"code" varchar(100) NOT NULL,
	"dict_key" varchar(100) NOT NULL,
	"dict_value" varchar(255) NOT NULL,
	"dict_value_en" varchar(255),
	"sort" integer DEFAULT 0 NOT NULL,
	"remark" varchar(500),
	"is_sealed" smallint DEFAULT 0 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "uq_dict_biz_code_key" ON "blade_dict_biz" USING btree ("tenant_id","code","dict_key") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_dict_biz_parent" ON "blade_dict_biz" USING btree ("tenant_id","parent_id","sort") WHERE is_deleted = 0;--> statement-breakpoint
SELECT app_enable_tenant_rls('blade_dict_biz');
