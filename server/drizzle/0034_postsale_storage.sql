-- device_sn COLLATE "C" by hand (drizzle-kit has no collation): an SN prefix is a range of a btree (migration 0033)
CREATE TABLE "ymy_feedback" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"app_user_id" bigint,
	"phone" varchar(32),
	"kind" varchar(16),
	"content" varchar(2000) NOT NULL,
	"images" text,
	"device_sn" varchar(32) COLLATE "C",
	"app_version" varchar(32),
	"state" integer DEFAULT 0 NOT NULL,
	"reply_count" integer DEFAULT 0 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"content_grams" text[] GENERATED ALWAYS AS (app_grams("content")) STORED,
	"phone_grams" text[] GENERATED ALWAYS AS (app_grams("phone")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_feedback_reply" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"feedback_id" bigint NOT NULL,
	"content" varchar(2000) NOT NULL,
	"replier" bigint,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_postsale_device" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"device_sn" varchar(32) COLLATE "C" NOT NULL,
	"app_user_id" bigint NOT NULL,
	"role" varchar(16) NOT NULL,
	"nickname" varchar(64),
	"product_id" bigint,
	"bind_time" timestamp with time zone DEFAULT now() NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_postsale_record" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"device_sn" varchar(32) COLLATE "C" NOT NULL,
	"kind" varchar(16) NOT NULL,
	"app_user_id" bigint,
	"description" varchar(1000) NOT NULL,
	"new_device_sn" varchar(32),
	"result" varchar(1000),
	"state" integer DEFAULT 0 NOT NULL,
	"handler" bigint,
	"closed_time" timestamp with time zone,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_payment_setting" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"channel" varchar(16) NOT NULL,
	"enabled" smallint DEFAULT 0 NOT NULL,
	"app_id" varchar(64),
	"mch_id" varchar(32),
	"api_key" text,
	"cert_serial" varchar(64),
	"private_key" text,
	"merchant_cert" text,
	"public_key" text,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_storage_order" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"order_no" varchar(32) NOT NULL,
	"device_sn" varchar(32) COLLATE "C" NOT NULL,
	"app_user_id" bigint NOT NULL,
	"price_id" bigint NOT NULL,
	"plan_name" varchar(64) NOT NULL,
	"months" integer NOT NULL,
	"storage_days" integer NOT NULL,
	"amount" bigint NOT NULL,
	"currency" varchar(3) NOT NULL,
	"pay_channel" varchar(16) NOT NULL,
	"pay_state" varchar(16) DEFAULT 'unpaid' NOT NULL,
	"pay_time" timestamp with time zone,
	"transaction_id" varchar(64),
	"start_time" timestamp with time zone,
	"end_time" timestamp with time zone,
	"transferred_from" varchar(32),
	"token_hash" varchar(64),
	"remark" varchar(500),
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"order_no_grams" text[] GENERATED ALWAYS AS (app_grams("order_no")) STORED
);
--> statement-breakpoint
CREATE TABLE "ymy_storage_order_log" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"order_id" bigint NOT NULL,
	"action" varchar(16) NOT NULL,
	"from_sn" varchar(32),
	"to_sn" varchar(32),
	"detail" varchar(500),
	"create_user" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ymy_storage_price" (
	"id" bigint PRIMARY KEY NOT NULL,
	"tenant_id" varchar(12) NOT NULL,
	"plan_name" varchar(64) NOT NULL,
	"product_type_id" bigint NOT NULL,
	"months" integer NOT NULL,
	"storage_days" integer NOT NULL,
	"price" bigint NOT NULL,
	"original_price" bigint,
	"currency" varchar(3) DEFAULT 'CNY' NOT NULL,
	"on_sale" smallint DEFAULT 1 NOT NULL,
	"sort" integer DEFAULT 1 NOT NULL,
	"create_user" bigint,
	"create_dept" bigint,
	"create_time" timestamp with time zone DEFAULT now() NOT NULL,
	"update_user" bigint,
	"update_time" timestamp with time zone DEFAULT now() NOT NULL,
	"status" integer DEFAULT 1 NOT NULL,
	"is_deleted" smallint DEFAULT 0 NOT NULL,
	"plan_name_grams" text[] GENERATED ALWAYS AS (app_grams("plan_name")) STORED
);
--> statement-breakpoint
ALTER TABLE "ymy_postsale_user" ADD COLUMN "password_reset" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "ymy_agreement" ADD COLUMN "published" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- the versions published before the column (those with a publish time) stay published
UPDATE "ymy_agreement" SET "published" = 1 WHERE "publish_time" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "ymy_agreement" ADD COLUMN "title_grams" text[] GENERATED ALWAYS AS (app_grams("title")) STORED;--> statement-breakpoint
CREATE INDEX "ix_feedback_tenant_time" ON "ymy_feedback" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_feedback_app_user" ON "ymy_feedback" USING btree ("tenant_id","app_user_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_feedback_sn" ON "ymy_feedback" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_feedback_content_grams" ON "ymy_feedback" USING gin ("content_grams");--> statement-breakpoint
CREATE INDEX "ix_feedback_phone_grams" ON "ymy_feedback" USING gin ("phone_grams");--> statement-breakpoint
CREATE INDEX "ix_feedback_reply_feedback" ON "ymy_feedback_reply" USING btree ("tenant_id","feedback_id","create_time") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_postsale_device_owner" ON "ymy_postsale_device" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0 and role = 'owner';--> statement-breakpoint
CREATE UNIQUE INDEX "uq_postsale_device_user" ON "ymy_postsale_device" USING btree ("tenant_id","device_sn","app_user_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_postsale_device_app_user" ON "ymy_postsale_device" USING btree ("tenant_id","app_user_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_postsale_device_time" ON "ymy_postsale_device" USING btree ("tenant_id","bind_time" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_postsale_record_tenant_time" ON "ymy_postsale_record" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_postsale_record_sn" ON "ymy_postsale_record" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0;--> statement-breakpoint
CREATE UNIQUE INDEX "uq_payment_setting_channel" ON "ymy_payment_setting" USING btree ("tenant_id","channel");--> statement-breakpoint
CREATE UNIQUE INDEX "uq_storage_order_no" ON "ymy_storage_order" USING btree ("order_no");--> statement-breakpoint
CREATE INDEX "ix_storage_order_tenant_time" ON "ymy_storage_order" USING btree ("tenant_id","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_storage_order_sn" ON "ymy_storage_order" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_storage_order_pay_time" ON "ymy_storage_order" USING btree ("tenant_id","pay_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_storage_order_end" ON "ymy_storage_order" USING btree ("tenant_id","end_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_storage_order_user" ON "ymy_storage_order" USING btree ("tenant_id","app_user_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_storage_order_amount" ON "ymy_storage_order" USING btree ("tenant_id","amount" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_storage_order_state_time" ON "ymy_storage_order" USING btree ("tenant_id","pay_state","create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_storage_order_order_no_grams" ON "ymy_storage_order" USING gin ("order_no_grams");--> statement-breakpoint
CREATE INDEX "ix_storage_order_log_order" ON "ymy_storage_order_log" USING btree ("tenant_id","order_id","create_time");--> statement-breakpoint
CREATE INDEX "ix_storage_price_tenant_sort" ON "ymy_storage_price" USING btree ("tenant_id","sort","id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_storage_price_type" ON "ymy_storage_price" USING btree ("tenant_id","product_type_id") WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_storage_price_plan_name_grams" ON "ymy_storage_price" USING gin ("plan_name_grams");--> statement-breakpoint
CREATE INDEX "ix_agreement_time" ON "ymy_agreement" USING btree ("create_time" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE is_deleted = 0;--> statement-breakpoint
CREATE INDEX "ix_agreement_title_grams" ON "ymy_agreement" USING gin ("title_grams");