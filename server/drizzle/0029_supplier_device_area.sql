CREATE TABLE "ymy_device_area" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"device_sn" varchar(32) NOT NULL,
	"code" varchar(64) NOT NULL,
	"agent_id" bigint,
	"dispatch_time" timestamp with time zone,
	"source" varchar(16) DEFAULT 'manual' NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "ux_device_area_sn" ON "ymy_device_area" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_area_code" ON "ymy_device_area" USING btree ("tenant_id",code COLLATE "C") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_area_tenant_time" ON "ymy_device_area" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;