CREATE TABLE "ymy_app_log" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"app_user_id" bigint,
	"phone" varchar(32),
	"app_version" varchar(32),
	"os" varchar(32),
	"phone_model" varchar(64),
	"log_file" varchar(1000),
	"upload_time" timestamp with time zone DEFAULT now() NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"phone_grams" text[] GENERATED ALWAYS AS (app_grams("phone")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_app_version" (
	"id" bigint PRIMARY KEY NOT NULL,
	"platform" varchar(16) NOT NULL,
	"version_name" varchar(32) NOT NULL,
	"version_code" integer NOT NULL,
	"package" varchar(1000),
	"store_url" varchar(500),
	"force_update" smallint DEFAULT 0 NOT NULL,
	"release_notes" text,
	"state" integer DEFAULT 1 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"version_name_grams" text[] GENERATED ALWAYS AS (app_grams("version_name")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_device_control" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"device_sn" varchar(32) COLLATE "C" NOT NULL,
	"action" varchar(16) NOT NULL,
	"reason" varchar(255) NOT NULL,
	"state" varchar(16) DEFAULT 'pending' NOT NULL,
	"result" varchar(255),
	"client_token" varchar(64),
	"sync_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"device_sn_grams" text[] GENERATED ALWAYS AS (app_grams("device_sn")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_device_notice_config" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"notice_type" varchar(32) NOT NULL,
	"enabled" smallint DEFAULT 0 NOT NULL,
	"channels" varchar(64) DEFAULT '' NOT NULL,
	"template" varchar(500),
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_device_status" (
	"id" bigint PRIMARY KEY NOT NULL,
	"sn" varchar(32) COLLATE "C" NOT NULL,
	"product_id" bigint NOT NULL,
	"online" smallint DEFAULT 0 NOT NULL,
	"firmware_version" varchar(32),
	"versions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reported_at" bigint DEFAULT 0 NOT NULL,
	"last_seen_time" timestamp with time zone,
	"address" varchar(64),
	"activation_time" timestamp with time zone,
	"activation_lat" double precision,
	"activation_lng" double precision,
	"activation_region" varchar(12),
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"sn_grams" text[] GENERATED ALWAYS AS (app_grams("sn")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_emergency_code" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"unlock_id" bigint NOT NULL,
	"device_sn" varchar(32) COLLATE "C" NOT NULL,
	"code" text NOT NULL,
	"kind" integer NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone NOT NULL,
	"issuer_name" varchar(64),
	"create_user" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_emergency_unlock" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"device_sn" varchar(32) COLLATE "C" NOT NULL,
	"applicant" varchar(32) NOT NULL,
	"phone" varchar(32) NOT NULL,
	"reason" text NOT NULL,
	"code_kind" integer NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	"code_count" integer DEFAULT 1 NOT NULL,
	"state" varchar(16) DEFAULT 'pending' NOT NULL,
	"approver" bigint,
	"approver_name" varchar(64),
	"approval_time" timestamp with time zone,
	"comment" varchar(255),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"device_sn_grams" text[] GENERATED ALWAYS AS (app_grams("device_sn")) STORED,
	"applicant_grams" text[] GENERATED ALWAYS AS (app_grams("applicant")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_face_log" (
	"id" bigint PRIMARY KEY NOT NULL,
	"device_sn" varchar(32) COLLATE "C" NOT NULL,
	"product_id" bigint NOT NULL,
	"user_id" varchar(64),
	"event" varchar(16) NOT NULL,
	"snapshot" varchar(1000),
	"client_token" varchar(64),
	"event_time" timestamp with time zone NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"device_sn_grams" text[] GENERATED ALWAYS AS (app_grams("device_sn")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_firmware" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"module_type" varchar(16) NOT NULL,
	"version" varchar(32) NOT NULL,
	"file" varchar(1000) NOT NULL,
	"file_size" bigint,
	"sha256" varchar(64),
	"md5" varchar(32),
	"release_notes" text,
	"cloud_vendor" integer,
	"cloud_firmware_id" varchar(128),
	"state" integer DEFAULT 1 NOT NULL,
	"publish_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"version_grams" text[] GENERATED ALWAYS AS (app_grams("version")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_ota_log" (
	"id" bigint PRIMARY KEY NOT NULL,
	"device_sn" varchar(32) COLLATE "C" NOT NULL,
	"task_id" bigint,
	"product_id" bigint NOT NULL,
	"state" varchar(16) NOT NULL,
	"percent" integer,
	"version" varchar(32),
	"message" varchar(255),
	"client_token" varchar(64),
	"report_time" timestamp with time zone NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"device_sn_grams" text[] GENERATED ALWAYS AS (app_grams("device_sn")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_ota_progress" (
	"id" bigint PRIMARY KEY NOT NULL,
	"task_id" bigint NOT NULL,
	"device_sn" varchar(32) COLLATE "C" NOT NULL,
	"product_id" bigint NOT NULL,
	"from_version" varchar(32),
	"to_version" varchar(32),
	"state" varchar(16) DEFAULT 'queued' NOT NULL,
	"percent" integer DEFAULT 0 NOT NULL,
	"attempt" integer DEFAULT 0 NOT NULL,
	"error_code" varchar(32),
	"error_message" varchar(255),
	"flagged" smallint DEFAULT 0 NOT NULL,
	"due_time" timestamp with time zone,
	"last_report_time" timestamp with time zone,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"device_sn_grams" text[] GENERATED ALWAYS AS (app_grams("device_sn")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_ota_task" (
	"id" bigint PRIMARY KEY NOT NULL,
	"task_name" varchar(64) NOT NULL,
	"firmware_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"scope" varchar(16) NOT NULL,
	"device_sns" text,
	"batch_id" bigint,
	"rate_limit" integer NOT NULL,
	"timeout_minutes" integer DEFAULT 30 NOT NULL,
	"max_retries" integer DEFAULT 1 NOT NULL,
	"to_version" varchar(32),
	"state" varchar(16) DEFAULT 'running' NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"succeeded" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"finish_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"task_name_grams" text[] GENERATED ALWAYS AS (app_grams("task_name")) STORED
);
--> statement-breakpoint
ALTER TABLE "blade_attach" ADD COLUMN "md5" varchar(32);--> statement-breakpoint
CREATE INDEX "ix_app_log_time" ON "ymy_app_log" USING btree ("tenant_id","upload_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_app_log_phone_grams" ON "ymy_app_log" USING gin ("phone_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_app_version_code" ON "ymy_app_version" USING btree ("platform","version_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_app_version_time" ON "ymy_app_version" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_app_version_version_name_grams" ON "ymy_app_version" USING gin ("version_name_grams");--> statement-breakpoint
CREATE INDEX "ix_device_control_time" ON "ymy_device_control" USING btree ("tenant_id","create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_control_token" ON "ymy_device_control" USING btree ("client_token") WHERE client_token is not null;--> statement-breakpoint
CREATE INDEX "ix_device_control_sn" ON "ymy_device_control" USING btree ("device_sn","create_time");--> statement-breakpoint
CREATE INDEX "ix_device_control_device_sn_grams" ON "ymy_device_control" USING gin ("device_sn_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_device_notice_config" ON "ymy_device_notice_config" USING btree ("product_id","notice_type");--> statement-breakpoint
CREATE INDEX "ix_device_notice_config_time" ON "ymy_device_notice_config" USING btree ("create_time","id");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_device_status_sn" ON "ymy_device_status" USING btree ("sn");--> statement-breakpoint
CREATE INDEX "ix_device_status_product" ON "ymy_device_status" USING btree ("product_id","sn");--> statement-breakpoint
CREATE INDEX "ix_device_status_time" ON "ymy_device_status" USING btree ("create_time","id");--> statement-breakpoint
CREATE INDEX "ix_device_status_online" ON "ymy_device_status" USING btree ("product_id") WHERE online = 1;--> statement-breakpoint
CREATE INDEX "ix_device_status_sn_grams" ON "ymy_device_status" USING gin ("sn_grams");--> statement-breakpoint
CREATE INDEX "ix_emergency_code_unlock" ON "ymy_emergency_code" USING btree ("tenant_id","unlock_id","create_time");--> statement-breakpoint
CREATE INDEX "ix_emergency_code_time" ON "ymy_emergency_code" USING btree ("tenant_id","create_time","id");--> statement-breakpoint
CREATE INDEX "ix_emergency_unlock_time" ON "ymy_emergency_unlock" USING btree ("tenant_id","create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_emergency_unlock_device_sn_grams" ON "ymy_emergency_unlock" USING gin ("device_sn_grams");--> statement-breakpoint
CREATE INDEX "ix_emergency_unlock_applicant_grams" ON "ymy_emergency_unlock" USING gin ("applicant_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_face_log_token" ON "ymy_face_log" USING btree ("device_sn","client_token") WHERE client_token is not null;--> statement-breakpoint
CREATE INDEX "ix_face_log_time" ON "ymy_face_log" USING btree ("event_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_face_log_device_sn_grams" ON "ymy_face_log" USING gin ("device_sn_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_firmware_version" ON "ymy_firmware" USING btree ("product_id","module_type","version") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_firmware_product" ON "ymy_firmware" USING btree ("product_id","create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_firmware_time" ON "ymy_firmware" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_firmware_version_grams" ON "ymy_firmware" USING gin ("version_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_ota_log_token" ON "ymy_ota_log" USING btree ("device_sn","client_token") WHERE client_token is not null;--> statement-breakpoint
CREATE INDEX "ix_ota_log_time" ON "ymy_ota_log" USING btree ("report_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_ota_log_task" ON "ymy_ota_log" USING btree ("task_id","report_time" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_ota_log_device_sn_grams" ON "ymy_ota_log" USING gin ("device_sn_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_ota_progress_device" ON "ymy_ota_progress" USING btree ("task_id","device_sn");--> statement-breakpoint
CREATE INDEX "ix_ota_progress_task_state" ON "ymy_ota_progress" USING btree ("task_id","state");--> statement-breakpoint
CREATE INDEX "ix_ota_progress_task_time" ON "ymy_ota_progress" USING btree ("task_id","last_report_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_ota_progress_sn" ON "ymy_ota_progress" USING btree ("device_sn","create_time");--> statement-breakpoint
CREATE INDEX "ix_ota_progress_time" ON "ymy_ota_progress" USING btree ("last_report_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_ota_progress_due" ON "ymy_ota_progress" USING btree ("due_time") WHERE due_time is not null;--> statement-breakpoint
CREATE INDEX "ix_ota_progress_device_sn_grams" ON "ymy_ota_progress" USING gin ("device_sn_grams");--> statement-breakpoint
CREATE INDEX "ix_ota_task_time" ON "ymy_ota_task" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_ota_task_running" ON "ymy_ota_task" USING btree ("id") WHERE is_deleted = 0 and state = 'running';--> statement-breakpoint
CREATE INDEX "ix_ota_task_firmware" ON "ymy_ota_task" USING btree ("firmware_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_ota_task_task_name_grams" ON "ymy_ota_task" USING gin ("task_name_grams");
--> statement-breakpoint
SELECT app_enable_tenant_rls('ymy_app_log');
--> statement-breakpoint
SELECT app_enable_tenant_rls('ymy_device_control');
--> statement-breakpoint
SELECT app_enable_tenant_rls('ymy_emergency_unlock');
--> statement-breakpoint
SELECT app_enable_tenant_rls('ymy_emergency_code');
