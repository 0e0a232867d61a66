CREATE TABLE "ymy_deliver" (
	"id" bigint PRIMARY KEY NOT NULL,
	"product_id" bigint NOT NULL,
	"customer_tenant_id" varchar(12) NOT NULL,
	"batch_id" bigint,
	"quantity" integer NOT NULL,
	"deliver_time" timestamp with time zone NOT NULL,
	"tracking_no" varchar(64),
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"tracking_no_grams" text[] GENERATED ALWAYS AS (app_grams("tracking_no")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_device_column" (
	"id" bigint PRIMARY KEY NOT NULL,
	"type_id" bigint NOT NULL,
	"column_key" varchar(32) NOT NULL,
	"label" varchar(32) NOT NULL,
	"label_en" varchar(64),
	"value_type" varchar(16) DEFAULT 'text' NOT NULL,
	"sort" integer DEFAULT 1 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"label_grams" text[] GENERATED ALWAYS AS (app_grams("label")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_product_auth" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"type_id" bigint NOT NULL,
	"create_user" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_batch" (
	"id" bigint PRIMARY KEY NOT NULL,
	"batch_no" varchar(32) NOT NULL,
	"factory_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"project_id" bigint,
	"cloud_vendor" integer NOT NULL,
	"quantity" integer NOT NULL,
	"sn_prefix" varchar(16) NOT NULL,
	"sn_start" varchar(32),
	"sn_end" varchar(32),
	"firmware_version" varchar(32),
	"planned_date" date,
	"state" integer DEFAULT 1 NOT NULL,
	"log" text,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"batch_no_grams" text[] GENERATED ALWAYS AS (app_grams("batch_no")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_batch_log" (
	"id" bigint PRIMARY KEY NOT NULL,
	"batch_id" bigint NOT NULL,
	"log" text NOT NULL,
	"create_user" bigint NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_cert" (
	"id" bigint PRIMARY KEY NOT NULL,
	"cloud_vendor" integer NOT NULL,
	"cloud_product_id" varchar(64) NOT NULL,
	"device_name" varchar(64) NOT NULL,
	"device_secret" text,
	"certificate" text,
	"private_key" text,
	"fingerprint" varchar(64),
	"valid_to" timestamp with time zone,
	"state" integer DEFAULT 1 NOT NULL,
	"batch_id" bigint,
	"device_sn" varchar(32),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"device_name_grams" text[] GENERATED ALWAYS AS (app_grams("device_name")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_cit_dict" (
	"id" bigint PRIMARY KEY NOT NULL,
	"parent_id" bigint DEFAULT '0' NOT NULL,
	"ancestors" varchar(2000) DEFAULT '0' NOT NULL,
	"code" varchar(64) NOT NULL,
	"name" varchar(64) NOT NULL,
	"standard" varchar(64),
	"sort" integer DEFAULT 1 NOT NULL,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"code_grams" text[] GENERATED ALWAYS AS (app_grams("code")) STORED,
	"name_grams" text[] GENERATED ALWAYS AS (app_grams("name")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_cit" (
	"id" bigint PRIMARY KEY NOT NULL,
	"device_sn" varchar(32) NOT NULL,
	"batch_id" bigint,
	"station_id" bigint,
	"result" smallint NOT NULL,
	"failed_items" varchar(2000),
	"items" jsonb NOT NULL,
	"test_time" timestamp with time zone NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"device_sn_grams" text[] GENERATED ALWAYS AS (app_grams("device_sn")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_factory" (
	"id" bigint PRIMARY KEY NOT NULL,
	"factory_name" varchar(64) NOT NULL,
	"factory_code" varchar(32) NOT NULL,
	"contact" varchar(32),
	"phone" varchar(32),
	"address" varchar(200),
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"factory_name_grams" text[] GENERATED ALWAYS AS (app_grams("factory_name")) STORED,
	"factory_code_grams" text[] GENERATED ALWAYS AS (app_grams("factory_code")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_factory_device" (
	"id" bigint PRIMARY KEY NOT NULL,
	"sn" varchar(32) COLLATE "C" NOT NULL,
	"batch_id" bigint NOT NULL,
	"product_id" bigint NOT NULL,
	"mac" varchar(17),
	"certificate_id" bigint,
	"station_id" bigint,
	"burn_time" timestamp with time zone,
	"test_result" smallint,
	"attributes" jsonb,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"sn_grams" text[] GENERATED ALWAYS AS (app_grams("sn")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_rewrite_sn" (
	"id" bigint PRIMARY KEY NOT NULL,
	"old_sn" varchar(32) NOT NULL,
	"new_sn" varchar(32) NOT NULL,
	"reason" varchar(500) NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"old_sn_grams" text[] GENERATED ALWAYS AS (app_grams("old_sn")) STORED,
	"new_sn_grams" text[] GENERATED ALWAYS AS (app_grams("new_sn")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_sn_sequence" (
	"prefix" varchar(16) PRIMARY KEY NOT NULL,
	"last_serial" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_station" (
	"id" bigint PRIMARY KEY NOT NULL,
	"factory_id" bigint NOT NULL,
	"station_name" varchar(64) NOT NULL,
	"station_code" varchar(32) NOT NULL,
	"station_type" integer NOT NULL,
	"ip" varchar(45),
	"last_seen_time" timestamp with time zone,
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"station_name_grams" text[] GENERATED ALWAYS AS (app_grams("station_name")) STORED,
	"station_code_grams" text[] GENERATED ALWAYS AS (app_grams("station_code")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_station_operator" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"factory_id" bigint NOT NULL,
	"station_ids" varchar(2000) DEFAULT '' NOT NULL,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ix_deliver_time" ON "ymy_deliver" USING btree ("deliver_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_deliver_customer" ON "ymy_deliver" USING btree ("customer_tenant_id","deliver_time") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_deliver_batch" ON "ymy_deliver" USING btree ("batch_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_deliver_tracking_no_grams" ON "ymy_deliver" USING gin ("tracking_no_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_device_column_key" ON "ymy_device_column" USING btree ("type_id","column_key") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_column_time" ON "ymy_device_column" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_device_column_label_grams" ON "ymy_device_column" USING gin ("label_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_product_auth" ON "ymy_product_auth" USING btree ("tenant_id","type_id");--> statement-breakpoint
CREATE INDEX "ix_product_auth_time" ON "ymy_product_auth" USING btree ("create_time","id");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_batch_no" ON "ymy_batch" USING btree ("batch_no") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_batch_factory" ON "ymy_batch" USING btree ("factory_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_batch_product" ON "ymy_batch" USING btree ("product_id","create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_batch_time" ON "ymy_batch" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_batch_batch_no_grams" ON "ymy_batch" USING gin ("batch_no_grams");--> statement-breakpoint
CREATE INDEX "ix_batch_log_batch" ON "ymy_batch_log" USING btree ("batch_id","create_time");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_cert_device_name" ON "ymy_cert" USING btree ("device_name") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_cert_fingerprint" ON "ymy_cert" USING btree ("fingerprint") WHERE is_deleted = 0 and fingerprint is not null;--> statement-breakpoint
CREATE INDEX "ix_cert_free" ON "ymy_cert" USING btree ("cloud_vendor","cloud_product_id","device_name") WHERE is_deleted = 0 and state = 1;--> statement-breakpoint
CREATE INDEX "ix_cert_batch" ON "ymy_cert" USING btree ("batch_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_cert_time" ON "ymy_cert" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_cert_device_name_grams" ON "ymy_cert" USING gin ("device_name_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_cit_dict_code" ON "ymy_cit_dict" USING btree ("code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_cit_dict_parent" ON "ymy_cit_dict" USING btree ("parent_id","sort") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_cit_dict_time" ON "ymy_cit_dict" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_cit_dict_code_grams" ON "ymy_cit_dict" USING gin ("code_grams");--> statement-breakpoint
CREATE INDEX "ix_cit_dict_name_grams" ON "ymy_cit_dict" USING gin ("name_grams");--> statement-breakpoint
CREATE INDEX "ix_cit_time" ON "ymy_cit" USING btree ("test_time" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "ix_cit_device" ON "ymy_cit" USING btree ("device_sn","test_time");--> statement-breakpoint
CREATE INDEX "ix_cit_batch" ON "ymy_cit" USING btree ("batch_id","test_time");--> statement-breakpoint
CREATE INDEX "ix_cit_items" ON "ymy_cit" USING gin ("items");--> statement-breakpoint
CREATE INDEX "ix_cit_device_sn_grams" ON "ymy_cit" USING gin ("device_sn_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_factory_name" ON "ymy_factory" USING btree ("factory_name") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_factory_code" ON "ymy_factory" USING btree ("factory_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_factory_time" ON "ymy_factory" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_factory_factory_name_grams" ON "ymy_factory" USING gin ("factory_name_grams");--> statement-breakpoint
CREATE INDEX "ix_factory_factory_code_grams" ON "ymy_factory" USING gin ("factory_code_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_factory_device_sn" ON "ymy_factory_device" USING btree ("sn");--> statement-breakpoint
CREATE INDEX "ix_factory_device_batch" ON "ymy_factory_device" USING btree ("batch_id","sn");--> statement-breakpoint
CREATE INDEX "ix_factory_device_product" ON "ymy_factory_device" USING btree ("product_id","sn");--> statement-breakpoint
CREATE INDEX "ix_factory_device_burned" ON "ymy_factory_device" USING btree ("batch_id") WHERE burn_time is not null;--> statement-breakpoint
CREATE INDEX "ix_factory_device_sn_grams" ON "ymy_factory_device" USING gin ("sn_grams");--> statement-breakpoint
CREATE INDEX "ix_rewrite_sn_time" ON "ymy_rewrite_sn" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_rewrite_sn_old_sn_grams" ON "ymy_rewrite_sn" USING gin ("old_sn_grams");--> statement-breakpoint
CREATE INDEX "ix_rewrite_sn_new_sn_grams" ON "ymy_rewrite_sn" USING gin ("new_sn_grams");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_station_code" ON "ymy_station" USING btree ("station_code") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_station_factory" ON "ymy_station" USING btree ("factory_id","create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_station_time" ON "ymy_station" USING btree ("create_time","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_station_station_name_grams" ON "ymy_station" USING gin ("station_name_grams");--> statement-breakpoint
CREATE INDEX "ix_station_station_code_grams" ON "ymy_station" USING gin ("station_code_grams");--> statement-breakpoint
CREATE INDEX "ix_station_operator_factory" ON "ymy_station_operator" USING btree ("factory_id");