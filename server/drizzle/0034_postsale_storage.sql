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
ALTER TABLE "ymy_postsale_user" ADD COLUMN "password_reset" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
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
CREATE INDEX "ix_postsale_record_sn" ON "ymy_postsale_record" USING btree ("tenant_id","device_sn") WHERE is_deleted = 0;