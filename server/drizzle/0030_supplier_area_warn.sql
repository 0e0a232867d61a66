CREATE TABLE "ymy_device_area_warn" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"device_sn" varchar(32) NOT NULL,
	"dispatched_code" varchar(64),
	"activated_code" varchar(64),
	"location" varchar(255),
	"activation_time" timestamp with time zone,
	"handled" smallint DEFAULT 0 NOT NULL,
	"handle_remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ux_device_area_warn" ON "ymy_device_area_warn" USING btree ("tenant_id","device_sn","activated_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_area_warn_time" ON "ymy_device_area_warn" USING btree ("tenant_id","activation_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;