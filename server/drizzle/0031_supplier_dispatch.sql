CREATE TABLE "ymy_area_dispatch" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"code" varchar(64) NOT NULL,
	"agent_id" bigint NOT NULL,
	"device_sn" varchar(32),
	"batch_no" varchar(32),
	"quantity" integer DEFAULT 0 NOT NULL,
	"dispatch_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_area_dispatch_oa" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"code" varchar(64) NOT NULL,
	"agent_id" bigint NOT NULL,
	"device_sn" varchar(32),
	"batch_no" varchar(32),
	"quantity" integer DEFAULT 0 NOT NULL,
	"dispatch_time" timestamp with time zone,
	"dispatch_id" bigint,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"approver" bigint,
	"approver_name" varchar(64),
	"approval_time" timestamp with time zone,
	"comment" varchar(255)
);
--> statement-breakpoint
CREATE TABLE "ymy_device_area_modify" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"device_sn" varchar(32) NOT NULL,
	"old_code" varchar(64),
	"new_code" varchar(64) NOT NULL,
	"operator" varchar(64),
	"reason" varchar(255),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"operator_grams" text[] GENERATED ALWAYS AS (app_grams("operator")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_device_area_oa" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"device_sn" varchar(32) NOT NULL,
	"code" varchar(64) NOT NULL,
	"agent_id" bigint,
	"dispatch_time" timestamp with time zone,
	"reason" varchar(255) NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"approver" bigint,
	"approver_name" varchar(64),
	"approval_time" timestamp with time zone,
	"comment" varchar(255)
);
--> statement-breakpoint
ALTER TABLE "ymy_device_area" ADD COLUMN "dispatch_id" bigint;--> statement-breakpoint
CREATE INDEX "ix_area_dispatch_time" ON "ymy_area_dispatch" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_area_dispatch_oa_time" ON "ymy_area_dispatch_oa" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_area_modify_time" ON "ymy_device_area_modify" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_area_modify_sn" ON "ymy_device_area_modify" USING btree ("tenant_id",device_sn COLLATE "C") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_area_modify_operator_grams" ON "ymy_device_area_modify" USING gin ("operator_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "ux_device_area_oa_pending" ON "ymy_device_area_oa" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0 and status = 0;--> statement-breakpoint
CREATE INDEX "ix_device_area_oa_time" ON "ymy_device_area_oa" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_area_dispatch" ON "ymy_device_area" USING btree ("dispatch_id") WHERE is_deleted = 0 and dispatch_id is not null;